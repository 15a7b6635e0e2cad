import CryptoCore
import Foundation
import Mdoc
import Verifier

/// ISO/IEC TS 18013-7 Annex C over the Digital Credentials API: a fresh recipient key, nonce and EncryptionInfo
/// per request (signed with the reader identity when configured). The store keeps the private key PEM, the exact
/// encryptionInfo text and the origin; the response is the DigitalCredential `data.response` string.
struct AnnexCHandler: FormatHandler {
    enum StateKey {
        static let privateKey = "privateKey"
        static let encryptionInfo = "encryptionInfo"
        static let origin = "origin"
    }

    let verifier: AnnexCVerifier
    let reader: ReaderIdentity?

    var format: VerificationReport.Format { .annexC }

    func prepare(policy: RequestPolicy, origin: String?) throws(APIError) -> PreparedRequest {
        guard let origin, !origin.isEmpty else {
            throw APIError.malformed("annex-c requests need the calling page's `origin`, e.g. https://shop.example")
        }
        let request: AnnexCWebRequest
        do {
            request = try AnnexCWebRequest.create(origin: origin, request: policy, reader: reader)
        } catch {
            throw APIError.malformed(error.message, code: error.code)
        }
        let state = [
            StateKey.privateKey: request.session.privateKey.pkcs8PEM(),
            StateKey.encryptionInfo: request.encryptionInfo,
            StateKey.origin: origin,
        ]
        return PreparedRequest(state: state, publicFields: [("data", request.data)])
    }

    func verify(response: String, request: StoredRequest, at time: Date) -> FormatVerification {
        guard let pem = request.state[StateKey.privateKey], let encryptionInfo = request.state[StateKey.encryptionInfo],
              let origin = request.state[StateKey.origin], let key = try? PrivateKey(pemEncoded: pem)
        else {
            return .rejected(VerificationError(.inputMalformed, "stored annex-c request is incomplete"))
        }
        let session = AnnexCSession(privateKey: key, encryptionInfo: encryptionInfo, origin: origin, request: request.policy)
        return .report(verifier.verify(response: response, session: session, at: time))
    }
}
