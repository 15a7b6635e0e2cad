import CryptoCore
import Foundation
import MdocModel

/// A compact JWE as OpenID4VP responses carry it (OpenID4VP 1.0 §8.3; RFC 7516 §7.1, RFC 7518 §4.6):
/// `protected..iv.ciphertext.tag` with ECDH-ES direct key agreement and AES-GCM. Parsing checks the shape; `decrypt`
/// derives the CEK with Concat KDF and opens AES-GCM with the protected segment as received as additional data.
/// `seal` is the wallet's side, for the kit.
package struct CompactJWE: Sendable {
    /// The first segment exactly as received: the AAD.
    package let protectedSegment: String
    package let algorithm: String
    package let encryption: String
    package let keyID: String?
    package let ephemeralKey: PublicKey
    package let partyUInfo: [UInt8]
    package let partyVInfo: [UInt8]
    package let compression: String?
    package let critical: [String]
    package let iv: [UInt8]
    /// The ciphertext with the 16-byte tag appended, as AES-GCM open takes it.
    package let sealed: [UInt8]
    package var ciphertextCount: Int { sealed.count - 16 }

    /// AES-GCM content encryption by `enc` value; A192GCM is not offered (OpenSSL's GCM set here is 128 and 256).
    package static let contentEncryption: [String: AEADAlgorithm] = ["A128GCM": .aes128GCM, "A256GCM": .aes256GCM]

    /// Errors: `.malformed` (segments, base64url, header JSON, a repeated or missing member, a member of the wrong
    /// JSON type, an empty `crit`), `.ephemeralKeyInvalid`.
    package init(_ text: String) throws(JOSEError) {
        let segments = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard segments.count == 5 else {
            throw JOSEError(.malformed, "the response is not a compact JWE (5 segments separated by '.'); it has \(segments.count)")
        }
        guard segments[1].isEmpty else {
            throw JOSEError(.malformed, "the JWE has an encrypted key; ECDH-ES direct key agreement leaves it empty")
        }
        func decode(_ index: Int, _ what: String) throws(JOSEError) -> [UInt8] {
            guard let bytes = Base64URL.decodeStrict(segments[index]) else {
                throw JOSEError(.malformed, "the JWE \(what) is not base64url")
            }
            return bytes
        }
        let headerBytes = try decode(0, "protected header")
        let header: JSONValue
        do {
            // A repeated member name is refused: parsers disagree on which value counts (RFC 7515 §4).
            header = try JSONValue.parse(headerBytes, maxNodes: 1_000)
        } catch {
            if let repeated = error.repeated {
                throw JOSEError(.malformed, "the JWE protected header names the member \(InputQuote.short(repeated.name)) twice in "
                                        + "one object; parsers disagree on which one counts")
            }
            throw JOSEError(.malformed, "the JWE protected header cannot be read as JSON: \(error.message)")
        }
        guard header.isObject else { throw JOSEError(.malformed, "the JWE protected header is not a JSON object") }
        // Every member read here must have its JSON type: a `kid` that is a number is not "no kid".
        guard let algorithm = try Self.string(header, "alg"), let encryption = try Self.string(header, "enc") else {
            throw JOSEError(.malformed, "the JWE protected header lacks `alg` or `enc`")
        }
        guard let epk = header["epk"] else { throw JOSEError(.malformed, "the JWE protected header has no `epk` object") }
        guard epk.isObject else {
            throw JOSEError(.malformed, "the JWE protected header member `epk` must be a JSON object; the wallet sent another JSON type")
        }
        protectedSegment = segments[0]
        self.algorithm = algorithm
        self.encryption = encryption
        keyID = try Self.string(header, "kid")
        ephemeralKey = try Self.ephemeralKey(epk)
        partyUInfo = try Self.party(header["apu"], "apu")
        partyVInfo = try Self.party(header["apv"], "apv")
        compression = try Self.string(header, "zip")
        critical = try Self.critical(header["crit"])
        iv = try decode(2, "initialization vector")
        var sealed = try decode(3, "ciphertext")
        let tag = try decode(4, "authentication tag")
        sealed += tag
        self.sealed = sealed
        guard iv.count == 12, tag.count == 16 else {
            throw JOSEError(.malformed, "AES-GCM needs a 96-bit IV and a 128-bit tag; the JWE has \(iv.count * 8) and \(tag.count * 8)")
        }
    }

    /// The member `name` of `object`: nil when absent; present, it must be a string (null included), or the JWE is
    /// `.malformed`.
    private static func string(_ object: JSONValue, _ name: String, in owner: String = "protected header") throws(JOSEError) -> String? {
        guard let value = object[name] else { return nil }
        guard let text = value.string else {
            throw JOSEError(.malformed, "the JWE \(owner) member `\(name)` must be a string; the wallet sent another JSON type")
        }
        return text
    }

    private static func party(_ value: JSONValue?, _ name: String) throws(JOSEError) -> [UInt8] {
        guard let value else { return [] }
        guard let text = value.string, let bytes = Base64URL.decodeStrict(text) else {
            throw JOSEError(.malformed, "the JWE `\(name)` is not a base64url string")
        }
        return bytes
    }

    /// `crit`, when present, is a non-empty array of strings (RFC 7515 §4.1.11).
    private static func critical(_ value: JSONValue?) throws(JOSEError) -> [String] {
        guard let value else { return [] }
        let names = value.array?.compactMap(\.string)
        guard let names, !names.isEmpty, names.count == value.array?.count else {
            throw JOSEError(.malformed, "the JWE protected header member `crit` must be a non-empty array of strings")
        }
        return names
    }

    /// `epk` must be an EC P-256 public JWK whose point is on the curve (RFC 7518 §4.6.1.1); its members, when
    /// present, must be strings (`.malformed`).
    private static func ephemeralKey(_ jwk: JSONValue) throws(JOSEError) -> PublicKey {
        let kty = try string(jwk, "kty", in: "`epk`")
        let crv = try string(jwk, "crv", in: "`epk`")
        let xText = try string(jwk, "x", in: "`epk`")
        let yText = try string(jwk, "y", in: "`epk`")
        guard kty == "EC", crv == "P-256" else {
            throw JOSEError(.ephemeralKeyInvalid, "the JWE `epk` is not an EC P-256 key")
        }
        guard let x = xText.flatMap(Base64URL.decodeStrict), let y = yText.flatMap(Base64URL.decodeStrict),
              x.count == 32, y.count == 32, let key = try? PublicKey(curve: .p256, x: x, y: y)
        else {
            throw JOSEError(.ephemeralKeyInvalid, "the JWE `epk` is not a point on P-256")
        }
        return key
    }

    /// ECDH with `recipient`, Concat KDF (AlgorithmID = `enc`), AES-GCM open. `.decryptionFailed` when the tag
    /// does not verify (another key, a changed header or ciphertext); `.encryptionUnsupported` for an `enc` other than
    /// A128GCM or A256GCM.
    package func decrypt(with recipient: PrivateKey) throws(JOSEError) -> [UInt8] {
        guard let aead = Self.contentEncryption[encryption] else {
            throw JOSEError(.encryptionUnsupported, "`enc` \(InputQuote.short(encryption)) is not AES-GCM 128 or 256")
        }
        var shared: [UInt8]
        do {
            shared = try recipient.sharedSecret(with: ephemeralKey)
        } catch {
            throw JOSEError(.decryptionFailed, "ECDH with the JWE's `epk` failed")
        }
        defer { shared.zeroize() }
        var key = ConcatKDF.derive(sharedSecret: shared, keyByteCount: aead.keyByteCount, algorithmID: encryption,
                                   partyUInfo: partyUInfo, partyVInfo: partyVInfo)
        defer { key.zeroize() }
        do {
            return try aead.open(key: key, nonce: iv, ciphertext: sealed, aad: Array(protectedSegment.utf8))
        } catch {
            throw JOSEError(.decryptionFailed,
                                    "AES-GCM open failed: not encrypted to this request's key, or the header or ciphertext was changed")
        }
    }

    /// The wallet's side: `plaintext` encrypted to `recipient` with a fresh P-256 ephemeral key, `alg` and `enc` as
    /// given (the header says what was asked even when it is not what this type decrypts; AES-GCM 256 for `A256GCM`,
    /// 128 otherwise), `kid` when given.
    package static func seal(_ plaintext: [UInt8], to recipient: PublicKey, algorithm: String = "ECDH-ES", encryption: String,
                             keyID: String?) throws -> String {
        let ephemeral = try PrivateKey.generate(.p256)
        let point = ephemeral.publicKey.uncompressedPoint
        var members: [(String, JSONValue)] = [("alg", .string(algorithm)), ("enc", .string(encryption))]
        if let keyID { members.append(("kid", .string(keyID))) }
        members.append(("epk", .object([("kty", .string("EC")), ("crv", .string("P-256")),
                                        ("x", .string(Base64URL.encode(point[1 ... 32]))), ("y", .string(Base64URL.encode(point[33 ... 64])))])))
        let protectedSegment = Base64URL.encode(Array(JSONValue.object(members).serialized().utf8))
        var shared = try ephemeral.sharedSecret(with: recipient)
        defer { shared.zeroize() }
        let aead: AEADAlgorithm = encryption == "A256GCM" ? .aes256GCM : .aes128GCM
        var key = ConcatKDF.derive(sharedSecret: shared, keyByteCount: aead.keyByteCount, algorithmID: encryption, partyUInfo: [], partyVInfo: [])
        defer { key.zeroize() }
        let iv = SecureRandom.bytes(12)
        let sealed = try aead.seal(key: key, nonce: iv, plaintext: plaintext, aad: Array(protectedSegment.utf8))
        return [protectedSegment, "", Base64URL.encode(iv), Base64URL.encode(sealed.dropLast(16)), Base64URL.encode(sealed.suffix(16))]
            .joined(separator: ".")
    }
}
