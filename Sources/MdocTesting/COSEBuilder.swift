import CBOR
import CryptoCore
import KitCertificates
import Mdoc
import MdocModel

/// COSE_Sign1 and COSE_Mac0 (RFC 9052 §4.2, §6.2) as mdoc uses them: `alg` in the protected header,
/// untagged arrays, raw r‖s ECDSA signatures.
public enum COSEBuilder {
    /// The hash a signature algorithm uses (ignored by EdDSA); SHA-256 for identifiers we do not know.
    static func digest(for algorithm: Int64) -> DigestAlgorithm {
        COSEAlgorithm(rawValue: algorithm)?.signatureParameters?.digest ?? .sha256
    }

    /// `["Signature1" / "MAC0", protected, external_aad h'', payload]`.
    static func toBeAuthenticated(context: String, protected: [UInt8], payload: [UInt8]) -> [UInt8] {
        CBOREncoder.encode(.array([.text(context), .bytes(protected), .bytes([]), .bytes(payload)]))
    }

    /// Protected-header entries with a `crit` listing a private-use label the verifier cannot process, with that
    /// label present (RFC 9052 §3.1).
    public static let unknownCriticalHeader: [(CBORValue, CBORValue)] = [(.int(2), .array([.int(-65_537)])), (.int(-65_537), .bool(true))]

    /// Builds a COSE_Sign1 with `protected = {1: algorithm}` plus `protectedExtra`.
    ///
    /// `payload` nil makes it detached; `signedPayload` is what the signature covers (the attached payload, or the
    /// detached bytes the verifier rebuilds). `algorithm` defaults to the one for the key's curve; another value signs
    /// with the key's own hash, or with `digest` when given (an ECDSA key then makes a valid signature under a label its
    /// curve is not paired with). Throws `SimulationError.unsupported` when no algorithm is given and the key's curve
    /// cannot sign, or the error from signing.
    public static func sign1(payload: [UInt8]?, signedPayload: [UInt8], key: PrivateKey, algorithm: Int64? = nil,
                             digest: DigestAlgorithm? = nil, protectedExtra: [(CBORValue, CBORValue)] = [],
                             unprotected: [(CBORValue, CBORValue)] = []) throws -> CBORValue {
        guard let alg = algorithm ?? COSEAlgorithm.signing(with: key.curve)?.rawValue else {
            throw SimulationError.unsupported("\(key.curve.rawValue) keys cannot sign")
        }
        let protected = CBOREncoder.encode(.map([(.int(1), .int(alg))] + protectedExtra))
        let digest = digest ?? COSEAlgorithm.signing(with: key.curve)?.signatureParameters?.digest ?? Self.digest(for: alg)
        let signature = try key.signature(for: toBeAuthenticated(context: "Signature1", protected: protected, payload: signedPayload),
                                          digest: digest)
        return .array([.bytes(protected), .map(unprotected), payload.map { .bytes($0) } ?? .null, .bytes(signature)])
    }

    /// A COSE_Sign1 with `protected = {1: -37}` (PS256) plus `protectedExtra`, signed with RSASSA-PSS and SHA-256: a
    /// valid signature under an algorithm ISO/IEC 18013-5 does not allow.
    static func sign1PS256(payload: [UInt8], key: RSATestKey, protectedExtra: [(CBORValue, CBORValue)],
                           unprotected: [(CBORValue, CBORValue)]) throws -> CBORValue {
        let protected = CBOREncoder.encode(.map([(.int(1), .int(-37))] + protectedExtra))
        let signature = try key.signPSS(toBeAuthenticated(context: "Signature1", protected: protected, payload: payload), digest: .sha256)
        return .array([.bytes(protected), .map(unprotected), .bytes(payload), .bytes(signature)])
    }

    /// COSE_Mac0 with `protected = {1: 5}` (HMAC 256/256), detached payload.
    public static func mac0(detachedPayload: [UInt8], key: [UInt8]) -> CBORValue {
        let protected = CBOREncoder.encode(.map([(.int(1), .int(COSEAlgorithm.hmac256.rawValue))]))
        let tag = HMAC.authenticate(.sha256, key: key, data: toBeAuthenticated(context: "MAC0", protected: protected, payload: detachedPayload))
        return .array([.bytes(protected), .map([]), .null, .bytes(tag)])
    }
}
