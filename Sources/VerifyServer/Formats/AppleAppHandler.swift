import CryptoCore
import Foundation
import Mdoc
import Verifier

/// Apple "Verify with Wallet" in-app: a fresh 32-byte nonce per request; the response is base64 (or base64url) of
/// `PKIdentityDocument.encryptedData`, verified with the configured merchant and team IDs.
struct AppleAppHandler: FormatHandler {
    static let nonceKey = "nonce"
    static let nonceLength = 32

    let verifier: AppleAppVerifier
    let merchantID: String
    let teamID: String

    var format: VerificationReport.Format { .appleApp }

    func prepare(policy: RequestPolicy, origin: String?) throws(APIError) -> PreparedRequest {
        let nonce = SecureRandom.bytes(Self.nonceLength)
        let encoded = Base64URL.encode(nonce)
        return PreparedRequest(state: [Self.nonceKey: encoded], publicFields: [("nonce", .string(encoded))])
    }

    func verify(response: String, request: StoredRequest, at time: Date) -> FormatVerification {
        guard let nonceText = request.state[Self.nonceKey], let nonce = Base64URL.decode(nonceText) else {
            return .rejected(VerificationError(.inputMalformed, "stored request has no nonce"))
        }
        guard !response.isEmpty, let encryptedData = Self.decodeBase64(response) else {
            return .rejected(VerificationError(.inputMalformed, "response is not base64 of PKIdentityDocument.encryptedData"))
        }
        let session = AppleAppSession(nonce: nonce, merchantID: merchantID, teamID: teamID, request: request.policy)
        return .report(verifier.verify(encryptedData: encryptedData, session: session, at: time))
    }

    /// `encryptedData` as clients send it: standard base64 or base64url, padded or not.
    static func decodeBase64(_ text: String) -> [UInt8]? { Base64URL.decode(text) }
}
