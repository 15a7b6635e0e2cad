import CryptoCore
import Foundation
import MdocModel
import MdocTesting
import Testing

@Suite("JOSE: the one JWS and JWE implementation (request objects, LoTEs, OpenID4VP responses)")
struct JOSETests {
    static func b64(_ text: String) -> String { Base64URL.encode(Array(text.utf8)) }

    static func signed() throws -> (jws: String, pki: TestReaderPKI) {
        let pki = try TestReaderPKI.shared()
        let jws = try JWS.sign(header: [("typ", .string("test+jwt"))], payloadText: #"{"n":1}"#, key: pki.identity.key,
                               chain: pki.identity.certificates + [pki.root])
        return (jws, pki)
    }

    @Test("signed, then read from the compact, flattened and one-signature general serializations: alg, x5c, payload, signature")
    func roundTrip() throws {
        let (jws, pki) = try Self.signed()
        let parts = jws.split(separator: ".").map(String.init)
        let flattened = #"{"protected":"\#(parts[0])","payload":"\#(parts[1])","signature":"\#(parts[2])"}"#
        let general = #"{"payload":"\#(parts[1])","signatures":[{"protected":"\#(parts[0])","signature":"\#(parts[2])"}]}"#
        for text in [jws, flattened, general] {
            let parsed = try JWS(Array(text.utf8))
            #expect(parsed.algorithm == .es256 && parsed.header["typ"]?.string == "test+jwt")
            #expect(parsed.payload == Array(#"{"n":1}"#.utf8))
            #expect(try parsed.certificates(limit: 8) == pki.identity.certificates + [pki.root])
            try parsed.verify(by: pki.identity.certificates[0])
        }
    }

    @Test("what is refused, and as what", arguments: [
        ("two segments", "e30.e30", JOSEError.Kind.malformed, "three base64url parts"),
        ("header not base64url", "e3@.e30.AA", .malformed, "not base64url"),
        ("header not an object", b64("[]") + ".e30.AA", .malformed, "not a JSON object"),
        ("no alg", b64(#"{"typ":"x"}"#) + ".e30.AA", .malformed, "no string `alg`"),
        ("alg none", b64(#"{"alg":"none"}"#) + ".e30.AA", .signatureInvalid, "not accepted"),
        ("alg HS256", b64(#"{"alg":"HS256"}"#) + ".e30.AA", .signatureInvalid, "not accepted"),
        ("no signature", b64(#"{"alg":"ES256"}"#) + ".e30.", .malformed, "signature is missing"),
        ("two signatures", #"{"payload":"e30","signatures":[{"protected":"e30","signature":"AA"},{"protected":"e30","signature":"AA"}]}"#,
         .malformed, "2 signatures"),
        ("a member repeated", b64(#"{"alg":"ES256","alg":"none"}"#) + ".e30.AA", .malformed, "not JSON"),
    ])
    func refused(_ name: String, _ text: String, _ kind: JOSEError.Kind, _ says: String) {
        #expect {
            _ = try JWS(Array(text.utf8))
        } throws: { error in
            guard let error = error as? JOSEError else { return false }
            return error.kind == kind && error.message.contains(says)
        }
    }

    @Test("an alg outside those the caller accepts; a changed payload; another signer; x5c absent, base64url or too long")
    func signatureAndCertificates() throws {
        let (jws, pki) = try Self.signed()
        #expect(throws: JOSEError.self) { try JWS(Array(jws.utf8), accepting: [.rs256]) }
        var parts = jws.split(separator: ".").map(String.init)
        parts[1] = Self.b64(#"{"n":2}"#)
        let changed = try JWS(Array(parts.joined(separator: ".").utf8))
        #expect(throws: JOSEError(.signatureInvalid, "the JWS signature (ES256) does not verify with the signer's key")) {
            try changed.verify(by: pki.identity.certificates[0])
        }
        let other = try TestReaderPKI.shared(seed: 2)
        #expect(throws: JOSEError.self) { try JWS(Array(jws.utf8)).verify(by: other.identity.certificates[0]) }
        #expect(throws: JOSEError.self) { try JWS(Array(jws.utf8)).certificates(limit: 1) }
        let der = Data(pki.root.derEncoded).base64EncodedString()
        for x5c in ["", #","x5c":[]"#, #","x5c":["\#(der.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_"))"]"#] {
            let text = Self.b64(#"{"alg":"ES256"\#(x5c)}"#) + ".e30.AA"
            #expect(throws: JOSEError.self) { try JWS(Array(text.utf8)).certificates(limit: 8) }
        }
    }

    @Test("JWE: sealed and opened with A128GCM and A256GCM; another key, an enc not implemented, a cut JWE", arguments: ["A128GCM", "A256GCM"])
    func jwe(_ encryption: String) throws {
        let recipient = try PrivateKey.generate(.p256)
        let sealed = try CompactJWE.seal(Array("hello".utf8), to: recipient.publicKey, encryption: encryption, keyID: "k1")
        let jwe = try CompactJWE(sealed)
        #expect(jwe.algorithm == "ECDH-ES" && jwe.encryption == encryption && jwe.keyID == "k1")
        #expect(try jwe.decrypt(with: recipient) == Array("hello".utf8))
        #expect(throws: JOSEError.self) { try jwe.decrypt(with: try PrivateKey.generate(.p256)) }
        let unsupported = try CompactJWE(try CompactJWE.seal([1], to: recipient.publicKey, encryption: "A192GCM", keyID: nil))
        #expect(throws: JOSEError(.encryptionUnsupported, "`enc` \"A192GCM\" is not AES-GCM 128 or 256")) { try unsupported.decrypt(with: recipient) }
        #expect(throws: JOSEError.self) { try CompactJWE(String(sealed.split(separator: ".", omittingEmptySubsequences: false).dropLast().joined(separator: "."))) }
    }
}
