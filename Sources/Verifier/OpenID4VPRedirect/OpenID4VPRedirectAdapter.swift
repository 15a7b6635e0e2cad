import CBOR
import CryptoCore
import Foundation
import MdocModel

/// The wallet's POST to `response_uri` (docs/formats.md §8.2): the form → the wallet's error, or the compact JWE
/// (`direct_post.jwt`) or plain `vp_token` (`direct_post`) → its `state` against the request's → one DeviceResponse per
/// presentation, all verified with the OpenID4VP redirect transcript (`OpenID4VPHandover`). The JWE, `vp_token` and
/// HAIP checks are the Digital Credentials API flow's (`OpenID4VPAdapter`).
struct OpenID4VPRedirectAdapter: FormatAdapter {
    struct Input {
        /// The form body as posted (`application/x-www-form-urlencoded`).
        let body: String
        /// The plaintext of the body's JWE, when the precheck already decrypted it with the session's key.
        let opened: [UInt8]?
        let session: OpenID4VPRedirectSession
        let request: RequestPolicy?
    }

    static let format = VerificationReport.Format.openID4VPRedirect
    /// The parameters of an answer (OpenID4VP 1.0 §8.2, §8.3.1, §8.5); any other is ignored.
    static let parameters: Set<String> = ["response", "vp_token", "state", "error", "error_description"]
    /// No reader key is agreed with the device: deviceSignature only.
    static let acceptsDeviceMac = false

    func inputSize(_ input: Input) -> (bytes: Int, isText: Bool) { (input.body.utf8.count, true) }

    func open(_ input: Input, in run: inout PipelineRun) -> OpenedResponse? {
        let answer = input.session.answerSession(request: input.request)
        let shared = OpenID4VPAdapter()
        guard let form = form(input.body, session: input.session, in: &run),
              let payload = payload(form, opened: input.opened, session: input.session, answer: answer, in: &run),
              checkState(payload: payload, form: form, session: input.session, in: &run),
              let presentations = shared.presentations(in: payload, session: answer, in: &run),
              let items = shared.deviceResponses(presentations, in: &run),
              answer.profile != .haip || shared.checkHAIPDocuments(zip(presentations.map(\.queryID), items), in: &run),
              shared.checkDocTypes(zip(presentations.map(\.queryID), items), session: answer, in: &run)
        else { return nil }
        return OpenedResponse(deviceResponses: items, transcript: input.session.transcript)
    }

    /// The form's parameters; a wallet `error` ends here (after its `state`, when it gives one, is checked).
    private func form(_ body: String, session: OpenID4VPRedirectSession, in run: inout PipelineRun) -> [String: String]? {
        let form: [String: String]
        do throws(VerificationError) {
            form = try FormEncoding.parse(body, significant: Self.parameters)
        } catch {
            run.log.fail(.redirectResponse, error.code, error.message)
            return nil
        }
        if let code = form["error"] {
            // An error answer carries the request's state like any other (RFC 6749 §4.1.2.1).
            guard checkState(payload: .object([]), form: form, session: session, in: &run) else { return nil }
            run.log.fail(.redirectResponse, .openID4VPWalletError, "the wallet answered with error \(InputQuote.short(code))"
                         + (form["error_description"].map { ": \(InputQuote.short($0))" } ?? ""))
            return nil
        }
        return form
    }

    /// The JSON object holding `vp_token` and `state`: the decrypted JWE's, or the plain form's, in the response mode
    /// asked for.
    private func payload(_ form: [String: String], opened: [UInt8]?, session: OpenID4VPRedirectSession, answer: OpenID4VPSession,
                         in run: inout PipelineRun) -> JSONValue? {
        switch (form["response"], form["vp_token"], session.responseMode) {
        case (nil, nil, _):
            run.log.fail(.redirectResponse, .inputMalformed, "the form has none of `response`, `vp_token` or `error`")
            return nil
        case (_?, _?, _):
            run.log.fail(.redirectResponse, .inputMalformed, "the form has both `response` and `vp_token`; an answer is one or the other")
            return nil
        case (nil, _?, _) where session.profile == .haip:
            run.log.fail(.haipEncryption, .haipEncryptionRequired, "the request was made under the HAIP profile, which accepts only an "
                         + "encrypted response (direct_post.jwt); a plain vp_token is refused: the wallet must answer with a JWE")
            return nil
        case (nil, _?, .directPostJWT):
            run.log.fail(.redirectResponse, .openID4VPEncryptionRequired,
                         "the request asked for an encrypted response (direct_post.jwt); a plain vp_token is refused")
            return nil
        case (_?, nil, .directPost):
            run.log.fail(.redirectResponse, .inputMalformed, "the request asked for a plain response (direct_post); an encrypted one was posted")
            return nil
        case (nil, let token?, .directPost):
            run.log.pass(.redirectResponse, "plain vp_token (direct_post)")
            return plainPayload(token, form: form, in: &run)
        case (let jwe?, nil, .directPostJWT):
            run.log.pass(.redirectResponse, "compact JWE (direct_post.jwt)")
            return OpenID4VPAdapter().decrypt(jwe, session: answer, opened: opened, in: &run)
        }
    }

    /// `direct_post`: `vp_token` is JSON text, `state` a form parameter.
    private func plainPayload(_ token: String, form: [String: String], in run: inout PipelineRun) -> JSONValue? {
        let object: JSONValue
        do throws(VerificationError) {
            let repeatedQueryID: String?
            (object, repeatedQueryID) = try OpenID4VPResponse.object(token.utf8, what: "the form's vp_token")
            if let repeatedQueryID { throw VerificationError(.vpTokenMalformed, OpenID4VPResponse.repeatedQueryMessage(repeatedQueryID)) }
        } catch {
            run.log.fail(.vpTokenStructure, .vpTokenMalformed, error.message)
            return nil
        }
        var members: [(String, JSONValue)] = [("vp_token", object)]
        if let state = form["state"] { members.append(("state", .string(state))) }
        return .object(members)
    }

    /// The answer's `state` is the request's: in the payload (the JWE's, or the plain form's) and, when the form
    /// carries one beside a JWE, there too. Compared in constant time.
    private func checkState(payload: JSONValue, form: [String: String], session: OpenID4VPRedirectSession,
                            in run: inout PipelineRun) -> Bool {
        let given = [payload["state"].map { $0.string ?? "" }, form["state"]].compactMap { $0 }
        guard !given.isEmpty else {
            run.log.fail(.redirectState, .redirectStateMismatch, "the answer carries no state; it must echo the request's")
            return false
        }
        guard given.allSatisfy({ constantTimeEquals(Array($0.utf8), Array(session.state.utf8)) }) else {
            run.log.fail(.redirectState, .redirectStateMismatch, "the answer's state is not the request's: it answers another request, "
                         + "or was changed")
            return false
        }
        run.log.pass(.redirectState, "state matches the request's")
        return true
    }
}
