import CryptoCore
import Foundation
import MdocModel

/// A compact JWS (RFC 7515 §7.1) signed with the reader identity: ES256/384/512 by the key's curve, `x5c` with
/// the reader's chain or the part of it given as `chain` (standard base64 DER, RFC 7515 §4.1.6). Used for OpenID4VP
/// signed request objects.
enum JWS {
    static func sign(header extra: [(String, JSONValue)], payload: JSONValue, with reader: ReaderIdentity,
                     chain: [Certificate]? = nil) throws(VerificationError) -> String {
        try sign(header: extra, payloadText: payload.serialized(), with: reader, chain: chain)
    }

    /// Signs `payloadText`, a JSON text taken as given (a request object that embeds JSON kept as text).
    static func sign(header extra: [(String, JSONValue)], payloadText: String, with reader: ReaderIdentity,
                     chain: [Certificate]? = nil) throws(VerificationError) -> String {
        guard let (name, digest) = algorithm(reader.key.curve) else {
            throw VerificationError(.inputMalformed, "a \(reader.key.curve.rawValue) reader key cannot sign a JWS (ES256/384/512)")
        }
        let header = JSONValue.object([("alg", .string(name))] + extra
                                      + [("x5c", .array((chain ?? reader.certificates).map { .string(Data($0.derEncoded).base64EncodedString()) }))])
        let signingInput = Base64URL.encode(Array(header.serialized().utf8)) + "." + Base64URL.encode(Array(payloadText.utf8))
        do {
            // OpenSSL gives r || s, the JWS form (RFC 7518 §3.4).
            let signature = try reader.key.signature(for: Array(signingInput.utf8), digest: digest)
            return signingInput + "." + Base64URL.encode(signature)
        } catch {
            throw VerificationError(.inputMalformed, "cannot sign the request object: \(error)")
        }
    }

    static func algorithm(_ curve: Curve) -> (String, DigestAlgorithm)? {
        switch curve {
        case .p256: ("ES256", .sha256)
        case .p384: ("ES384", .sha384)
        case .p521: ("ES512", .sha512)
        default: nil
        }
    }
}
