import CryptoCore
import MdocModel

extension ReaderIdentity {
    /// A request object: a compact JWS of `payload` (JSON text taken as given) signed with this identity's key, `typ`
    /// `oauth-authz-req+jwt`, and `x5c` holding `chain` (the HAIP profile sends the chain without its root).
    func signedRequestObject(_ payload: String, chain: [Certificate]) throws(VerificationError) -> String {
        do {
            return try JWS.sign(header: [("typ", .string("oauth-authz-req+jwt"))], payloadText: payload, key: key, chain: chain)
        } catch {
            throw VerificationError(.inputMalformed, "cannot sign the request object: \(error.message)")
        }
    }
}

extension JOSEError {
    /// The error as the OpenID4VP response checks report a JWE that cannot be read or opened.
    var jweError: VerificationError {
        switch kind {
        case .ephemeralKeyInvalid: VerificationError(.jweEphemeralKeyInvalid, message)
        case .encryptionUnsupported: VerificationError(.jweEncryptionNotAllowed, message)
        case .decryptionFailed: VerificationError(.jweDecryptionFailed, message)
        case .malformed, .signatureInvalid: VerificationError(.jweMalformed, message)
        }
    }
}
