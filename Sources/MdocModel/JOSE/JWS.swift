import CryptoCore
import Foundation

/// A JWS (RFC 7515) as received, parsed: the protected header, the signing input exactly as it arrived, the payload
/// and the signature. Read from the compact serialization or from the flattened or one-signature general JSON one;
/// what a header member means beyond `alg` and `x5c` is the caller's (a LoTE's `crit` and `sigT`, a request
/// object's `typ`). Signing (ECDSA, `x5c`) is here too, so one implementation serves the verifier's request objects,
/// LoTE verification and the kit's wallet.
package struct JWS: Sendable {
    package let header: JSONValue
    package let algorithm: JWSAlgorithm
    /// ASCII(BASE64URL(header) '.' BASE64URL(payload)), exactly as received.
    package let signingInput: [UInt8]
    package let payload: [UInt8]
    package let signature: [UInt8]

    /// - Parameters:
    ///   - bytes: a compact JWS, or its JSON serialization (starting with `{`).
    ///   - accepted: the `alg` values taken; another is `.signatureInvalid`.
    /// - Throws: `.malformed` for the serialization, base64url or header JSON; `.signatureInvalid` for an `alg` not
    ///   accepted.
    package init(_ bytes: [UInt8], accepting accepted: [JWSAlgorithm] = JWSAlgorithm.allCases) throws(JOSEError) {
        let (protected, payload, signature) = try Self.segments(bytes)
        guard let headerBytes = Base64URL.decodeStrict(protected) else { throw JOSEError(.malformed, "the JWS protected header is not base64url") }
        let header: JSONValue
        do {
            header = try JSONValue.parse(headerBytes, maxNodes: 10_000)
        } catch {
            throw JOSEError(.malformed, "the JWS protected header is not JSON: \(error.message)")
        }
        guard header.isObject else { throw JOSEError(.malformed, "the JWS protected header is not a JSON object") }
        guard let name = header["alg"]?.string else { throw JOSEError(.malformed, "the JWS protected header has no string `alg`") }
        guard let algorithm = JWSAlgorithm(rawValue: name), accepted.contains(algorithm) else {
            throw JOSEError(.signatureInvalid, "the JWS alg \(InputQuote.short(name)) is not accepted (\(accepted.map(\.rawValue).joined(separator: ", ")))")
        }
        guard let payloadBytes = Base64URL.decodeStrict(payload) else { throw JOSEError(.malformed, "the JWS payload is not base64url") }
        guard let signatureBytes = Base64URL.decodeStrict(signature), !signatureBytes.isEmpty else {
            throw JOSEError(.malformed, "the JWS signature is missing or not base64url")
        }
        self.header = header
        self.algorithm = algorithm
        signingInput = Array((protected + "." + payload).utf8)
        self.payload = payloadBytes
        self.signature = signatureBytes
    }

    /// The three base64url parts: of a compact JWS, or of a flattened or one-signature general JSON serialization.
    static func segments(_ bytes: [UInt8]) throws(JOSEError) -> (String, String, String) {
        if bytes.first == UInt8(ascii: "{") {
            let object: JSONValue
            do {
                object = try JSONValue.parse(bytes, maxNodes: 10_000)
            } catch {
                throw JOSEError(.malformed, "the JWS JSON serialization is not JSON: \(error.message)")
            }
            var signed = object
            if let signatures = object["signatures"]?.array {
                guard signatures.count == 1 else {
                    throw JOSEError(.malformed, "the JWS JSON serialization holds \(signatures.count) signatures; one is read")
                }
                signed = signatures[0]
            }
            guard let protected = signed["protected"]?.string, let signature = signed["signature"]?.string,
                  let payload = object["payload"]?.string else {
                throw JOSEError(.malformed, "the JWS JSON serialization lacks `protected`, `payload` or `signature`")
            }
            return (protected, payload, signature)
        }
        guard bytes.allSatisfy({ $0 < 0x80 }) else { throw JOSEError(.malformed, "not a compact JWS (non-ASCII bytes)") }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw JOSEError(.malformed, "not a compact JWS (three base64url parts separated by '.'); it has \(parts.count)")
        }
        return (String(decoding: parts[0], as: UTF8.self), String(decoding: parts[1], as: UTF8.self), String(decoding: parts[2], as: UTF8.self))
    }

    /// The certificates of the header's `x5c`, signer first (standard base64 DER, RFC 7515 §4.1.6).
    /// - Throws: `.malformed` when `x5c` is absent, empty, longer than `limit`, or holds an entry that is not a
    ///   certificate.
    package func certificates(limit: Int) throws(JOSEError) -> [Certificate] {
        guard let list = header["x5c"]?.array, !list.isEmpty else {
            throw JOSEError(.malformed, "the JWS protected header has no `x5c` naming its signer certificate")
        }
        guard list.count <= limit else { throw JOSEError(.malformed, "the JWS `x5c` holds \(list.count) certificates; at most \(limit) are read") }
        var certificates: [Certificate] = []
        for (index, item) in list.enumerated() {
            // Standard base64, not base64url.
            guard let text = item.string, text.utf8.count <= 65_536, text.utf8.allSatisfy({ $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: "_") }),
                  let der = Base64URL.decode(text), let certificate = try? Certificate(derEncoded: der) else {
                throw JOSEError(.malformed, "x5c[\(index)] is not standard base64 of a DER certificate")
            }
            certificates.append(certificate)
        }
        return certificates
    }

    /// - Throws: `.signatureInvalid` when the signature does not verify with `signer`'s key, or the key does not fit
    ///   the `alg`.
    package func verify(by signer: Certificate) throws(JOSEError) {
        guard try algorithm.isValid(signature, for: signingInput, by: signer) else {
            throw JOSEError(.signatureInvalid, "the JWS signature (\(algorithm.rawValue)) does not verify with the signer's key")
        }
    }

    /// A compact JWS over `payloadText` (taken as given) signed with `key` by its curve's ECDSA algorithm, its header
    /// `alg`, then `extra`, then `x5c` holding `chain`.
    /// - Throws: `.signatureInvalid` when the key's curve has no JWS algorithm or signing fails.
    package static func sign(header extra: [(String, JSONValue)], payloadText: String, key: PrivateKey,
                             chain: [Certificate]) throws(JOSEError) -> String {
        guard let algorithm = JWSAlgorithm(signingWith: key.curve) else {
            throw JOSEError(.signatureInvalid, "a \(key.curve.rawValue) key cannot sign a JWS (ES256/384/512)")
        }
        let header = JSONValue.object([("alg", .string(algorithm.rawValue))] + extra
                                      + [("x5c", .array(chain.map { .string(Data($0.derEncoded).base64EncodedString()) }))])
        let signingInput = Base64URL.encode(Array(header.serialized().utf8)) + "." + Base64URL.encode(Array(payloadText.utf8))
        do {
            // OpenSSL gives r || s, the JWS form.
            return signingInput + "." + Base64URL.encode(try key.signature(for: Array(signingInput.utf8), digest: algorithm.digest))
        } catch {
            throw JOSEError(.signatureInvalid, "cannot sign the JWS: \(error)")
        }
    }
}
