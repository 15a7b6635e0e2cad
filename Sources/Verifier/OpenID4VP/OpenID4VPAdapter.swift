import CBOR
import Foundation
import MdocModel

/// OpenID4VP 1.0 over the Digital Credentials API with `mso_mdoc` (docs/formats.md §7): the DC API result → the
/// wallet's error, or the compact JWE (`dc_api.jwt`: ECDH-ES + AES-GCM to the request's key) or plain `vp_token`
/// (`dc_api`) → one DeviceResponse per presentation, all verified with the OpenID4VP DC API transcript.
struct OpenID4VPAdapter: FormatAdapter {
    struct Input {
        let response: String
        let session: OpenID4VPSession
    }

    static let format = VerificationReport.Format.openID4VP
    /// No reader key is agreed with the device: deviceSignature only.
    static let acceptsDeviceMac = false

    /// The posted text's own UTF-8 bytes, held against the text ceiling.
    func inputSize(_ input: Input) -> (bytes: Int, isText: Bool) { (input.response.utf8.count, true) }

    func open(_ input: Input, in run: inout PipelineRun) -> OpenedResponse? {
        let session = input.session
        guard let parsed = parse(input.response, session: session, in: &run),
              let payload = payload(of: parsed, session: session, in: &run),
              let presentations = presentations(in: payload, session: session, in: &run),
              let items = deviceResponses(presentations, in: &run),
              session.profile != .haip || checkHAIPDocuments(zip(presentations.map(\.queryID), items), in: &run),
              checkDocTypes(zip(presentations.map(\.queryID), items), session: session, in: &run)
        else { return nil }
        return OpenedResponse(deviceResponses: items, transcript: session.transcript)
    }

    /// The posted text read as a response, its DC API `protocol` (when given) one the request offered.
    private func parse(_ response: String, session: OpenID4VPSession, in run: inout PipelineRun) -> OpenID4VPResponse? {
        do throws(VerificationError) {
            let (response, protocolIdentifier) = try OpenID4VPResponse.parse(response)
            if let protocolIdentifier, !Self.protocols(session).contains(protocolIdentifier) {
                throw VerificationError(.inputMalformed, "the wallet answered protocol \(InputQuote.short(protocolIdentifier)), "
                                        + "which this request did not offer (\(Self.protocols(session).joined(separator: ", ")))")
            }
            return response
        } catch {
            run.log.fail(.openID4VPResponse, error.code, error.message)
            return nil
        }
    }

    /// The JSON object holding `vp_token`: the plain one, or the decrypted JWE's, in the response mode asked for.
    private func payload(of parsed: OpenID4VPResponse, session: OpenID4VPSession, in run: inout PipelineRun) -> JSONValue? {
        switch (parsed, session.responseMode) {
        case (.plain, _) where session.profile == .haip:
            refuseHAIPPlainAnswer(in: &run)
            return nil
        case (.walletError(let code, let description), _):
            run.log.fail(.openID4VPResponse, .openID4VPWalletError,
                         "the wallet answered with error \(InputQuote.short(code))" + (description.map { ": \(InputQuote.short($0))" } ?? ""))
            return nil
        case (.plain, .dcAPIJWT):
            run.log.fail(.openID4VPResponse, .openID4VPEncryptionRequired,
                         "the request asked for an encrypted response (dc_api.jwt); a plain vp_token is refused")
            return nil
        case (.encrypted, .dcAPI):
            run.log.fail(.openID4VPResponse, .inputMalformed, "the request asked for a plain response (dc_api); an encrypted one was posted")
            return nil
        case (.plain(let object, let repeatedQueryID), .dcAPI):
            run.log.pass(.openID4VPResponse, "plain vp_token (dc_api)")
            if let repeatedQueryID {
                run.log.fail(.vpTokenStructure, .vpTokenMalformed, OpenID4VPResponse.repeatedQueryMessage(repeatedQueryID))
                return nil
            }
            return object
        case (.encrypted(let text), .dcAPIJWT):
            run.log.pass(.openID4VPResponse, "compact JWE (dc_api.jwt)")
            return decrypt(text, session: session, in: &run)
        }
    }

    /// The `vp_token`'s presentations, one per credential query of the request.
    func presentations(in payload: JSONValue, session: OpenID4VPSession,
                               in run: inout PipelineRun) -> [OpenID4VPResponse.Presentation]? {
        if session.profile == .haip, !checkHAIPPresentations(payload, in: &run) { return nil }
        do {
            let (found, legacy) = try OpenID4VPResponse.presentations(payload, queryIDs: session.queryIDs)
            let ids = found.map(\.queryID).joined(separator: ", ")
            if legacy.isEmpty {
                run.log.pass(.vpTokenStructure, "\(found.count) presentation(s): \(ids)")
            } else {
                run.log.warn(.vpTokenStructure, "\(found.count) presentation(s): \(ids); \(legacy.joined(separator: ", ")) "
                             + "answered with a bare string (the pre-1.0 shape), accepted")
            }
            return found
        } catch {
            run.log.fail(.vpTokenStructure, error.code, error.message)
            return nil
        }
    }

    /// Each presentation's DeviceResponse decoded as CBOR, in order.
    func deviceResponses(_ presentations: [OpenID4VPResponse.Presentation], in run: inout PipelineRun) -> [CBORItem]? {
        var items: [CBORItem] = []
        for presentation in presentations {
            guard let item = run.decodeDeviceResponse(presentation.deviceResponse, what: "the DeviceResponse of \(presentation.queryID)",
                                                      code: .responseMalformed) else { return nil }
            items.append(item)
        }
        return items
    }

    /// Every document presented for a credential query must be of the query's `doctype_value` (B.2.3): otherwise
    /// one query's answer could stand in for another's. Only the docType is read here; a DeviceResponse or Document
    /// that does not parse fails its own mdoc check, and the MSO binds the docType there.
    func checkDocTypes(_ answers: Zip2Sequence<[String], [CBORItem]>, session: OpenID4VPSession, in run: inout PipelineRun) -> Bool {
        guard !session.queryDocTypes.isEmpty || (!session.queryIDs.isEmpty && session.request != nil) else {
            run.log.skip(.vpTokenDocType, "the stored request names no doctype_value per credential query (kept before they were, "
                         + "and no request policy was given)")
            return true
        }
        var bound: [String] = []
        var mismatches: [String] = []
        for (queryID, item) in answers {
            guard let expected = session.queryDocTypes[queryID] else {
                mismatches.append("the stored request has no doctype_value for credential query \(InputQuote.short(queryID)) "
                                  + "(the request policy given does not make that query)")
                continue
            }
            bound.append("\(queryID): \(expected)")
            guard let response = try? DeviceResponse(item) else { continue }
            for (index, document) in response.documents.enumerated() {
                guard let docType = document["docType"]?.text, docType != expected else { continue }
                mismatches.append("credential query \(InputQuote.short(queryID)) asks for \(InputQuote.short(expected)); document \(index) "
                                  + "of its DeviceResponse is \(InputQuote.short(docType))")
            }
        }
        guard mismatches.isEmpty else {
            for detail in mismatches { run.log.fail(.vpTokenDocType, .vpTokenDocTypeMismatch, detail) }
            return false
        }
        run.log.pass(.vpTokenDocType, "each presentation holds only its query's doctype_value (\(bound.joined(separator: ", ")))")
        return true
    }

    /// The protocol identifiers a request of this session may be answered with.
    static func protocols(_ session: OpenID4VPSession) -> [String] {
        session.handover == .draft24 ? ["openid4vp"] : ["openid4vp-v1-unsigned", "openid4vp-v1-signed", "openid4vp-v1-multisigned"]
    }
}
