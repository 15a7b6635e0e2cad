import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import Testing
import Verifier

/// Every JWE protected-header member the verifier reads must have its JSON type: a member of another type is
/// `jwe.malformed`, never read as absent. Each case is sealed again under its edited header, so the AAD matches and
/// only the type rule can refuse it.
@Suite("JWE protected-header member types")
struct JWEHeaderTests {
    /// The kit answer's protected header and plaintext, sealed again to the request's key under `edit`'s header.
    static func resealed(_ item: OpenID4VPRejectionTests.Case, text: (String) -> String = { $0 },
                         _ edit: (inout [String: Any]) -> Void) throws -> String {
        func bytes(_ text: String?) throws -> [UInt8] { try #require(text.flatMap(Base64URL.decodeStrict)) }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(item.posted.utf8)) as? [String: Any])
        let jwe = try #require((object["data"] as? [String: Any])?["response"] as? String)
        let segments = jwe.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(try JSONSerialization.jsonObject(with: Data(try bytes(segments[0]))) as? [String: Any])
        let epk = try #require(header["epk"] as? [String: String])
        let sender = try PublicKey(curve: .p256, x: try bytes(epk["x"]), y: try bytes(epk["y"]))
        let recipient = try #require(item.request.encryptionKey)
        let received = ConcatKDF.derive(sharedSecret: try recipient.sharedSecret(with: sender), keyByteCount: 16, algorithmID: "A128GCM",
                                        partyUInfo: [], partyVInfo: [])
        let plaintext = try AEADAlgorithm.aes128GCM.open(key: received, nonce: try bytes(segments[2]),
                                                         ciphertext: try bytes(segments[3]) + bytes(segments[4]), aad: Array(segments[0].utf8))

        let ephemeral = try PrivateKey.generate(.p256)
        let jwk = try EncryptionJWK(publicKey: ephemeral.publicKey, kid: "")
        var edited = header
        edited["epk"] = ["kty": "EC", "crv": "P-256", "x": jwk.x, "y": jwk.y]
        edit(&edited)
        let protectedSegment = Base64URL.encode(Array(text(String(decoding: try JSONSerialization.data(withJSONObject: edited), as: UTF8.self)).utf8))
        let key = ConcatKDF.derive(sharedSecret: try ephemeral.sharedSecret(with: try #require(item.request.jwk).publicKey()),
                                   keyByteCount: 16, algorithmID: "A128GCM", partyUInfo: [], partyVInfo: [])
        let iv = SecureRandom.bytes(12)
        let out = try AEADAlgorithm.aes128GCM.seal(key: key, nonce: iv, plaintext: plaintext, aad: Array(protectedSegment.utf8))
        return [protectedSegment, "", Base64URL.encode(iv), Base64URL.encode(out.dropLast(16)), Base64URL.encode(out.suffix(16))]
            .joined(separator: ".")
    }

    static func epkMember(_ name: String, _ value: Any) -> (inout [String: Any]) -> Void {
        { header in
            var epk = header["epk"] as? [String: Any] ?? [:]
            epk[name] = value
            header["epk"] = epk
        }
    }

    @Test("resealing without an edit verifies; without kid it verifies with a warning; a well-formed crit is refused")
    func baseline() throws {
        let item = try OpenID4VPRejectionTests.answer()
        let same = OpenID4VPRejectionTests.verify(try Self.resealed(item) { _ in }, item)
        #expect(same.verified, "\(same.errors)")
        let noKid = OpenID4VPRejectionTests.verify(try Self.resealed(item) { $0["kid"] = nil }, item)
        #expect(noKid.verified && noKid.checks.contains { $0.id == .jweRecipient && $0.status == .warn }, "\(noKid.errors)")
        let crit = OpenID4VPRejectionTests.verify(try Self.resealed(item) { $0["crit"] = ["exp"]; $0["exp"] = 1 }, item)
        #expect(crit.errors.map(\.code) == [.jweAlgorithmUnsupported])
    }

    static var wrongTypes: [(name: String, member: String, edit: (inout [String: Any]) -> Void)] { [
        ("alg a number", "`alg`", { $0["alg"] = 5 }),
        ("enc an array", "`enc`", { $0["enc"] = ["A128GCM"] }),
        ("epk a string", "`epk`", { $0["epk"] = "EC" }),
        ("epk.kty a number", "`kty`", epkMember("kty", 2)),
        ("epk.crv null", "`crv`", epkMember("crv", NSNull())),
        ("epk.x an object", "`x`", epkMember("x", ["v": 1])),
        ("epk.y a boolean", "`y`", epkMember("y", true)),
        ("kid a number", "`kid`", { $0["kid"] = 5 }),
        ("kid null", "`kid`", { $0["kid"] = NSNull() }),
        ("kid an array", "`kid`", { $0["kid"] = ["kit-9"] }),
        ("zip a number", "`zip`", { $0["zip"] = 1 }),
        ("zip null", "`zip`", { $0["zip"] = NSNull() }),
        ("crit a string", "`crit`", { $0["crit"] = "exp" }),
        ("crit an object", "`crit`", { $0["crit"] = ["exp": true] }),
        ("crit a mixed array", "`crit`", { $0["crit"] = ["exp", 1] }),
        ("crit empty", "`crit`", { $0["crit"] = [String]() }),
        ("crit null", "`crit`", { $0["crit"] = NSNull() }),
        ("apu a number", "`apu`", { $0["apu"] = 7 }),
        ("apv an object", "`apv`", { $0["apv"] = [String: Any]() }),
    ] }

    @Test("a member of the wrong JSON type is jwe.malformed naming it", arguments: wrongTypes.indices)
    func wrongType(index: Int) throws {
        let (name, member, edit) = Self.wrongTypes[index]
        let item = try OpenID4VPRejectionTests.answer()
        let report = OpenID4VPRejectionTests.verify(try Self.resealed(item, edit), item)
        #expect(report.errors.map(\.code) == [.jweMalformed], "\(name): \(report.errors)")
        #expect(report.errors.first?.message.contains(member) == true, "\(name): \(report.errors)")
        #expect(report.documents.isEmpty)
    }

    @Test("a member named twice (top level or in epk) is jwe.malformed, named: parsers disagree on which one counts")
    func repeatedMember() throws {
        let item = try OpenID4VPRejectionTests.answer()
        let repeats: [(String, (String) -> String)] = [
            ("alg", { "{\"alg\":\"RSA-OAEP\"," + $0.dropFirst() }),
            ("crv", { $0.replacingOccurrences(of: "\"epk\":{", with: "\"epk\":{\"crv\":\"P-384\",") }),
        ]
        for (name, text) in repeats {
            let report = OpenID4VPRejectionTests.verify(try Self.resealed(item, text: text) { _ in }, item)
            #expect(report.errors.map(\.code) == [.jweMalformed], "\(name): \(report.errors)")
            #expect(report.errors.first?.message.contains("\"\(name)\" twice") == true, "\(name): \(report.errors)")
        }
    }
}
