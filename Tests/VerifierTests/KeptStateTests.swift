import CryptoCore
import Foundation
import MdocModel
import Testing
import Verifier

extension KeptState {
    /// This state with member `name` set to `value`, or without it for nil.
    func setting(_ name: String, _ value: JSONValue?) throws -> KeptState {
        let members = (self.value.members ?? []).filter { $0.0 != name } + (value.map { [(name, $0)] } ?? [])
        return try KeptState(json: JSONValue.object(members).serializedBytes())
    }

    /// The member `name`.
    subscript(name: String) -> JSONValue? { value[name] }
}

/// A flow reads its own kept state back, and says by name what an incomplete one lacks (the CLI's session.json and the
/// server's stored rows hand it over without knowing its members).
@Suite("Kept state: each flow reads its own back and names what is missing")
struct KeptStateTests {
    static func annexCState() throws -> KeptState {
        try AnnexCFlow.state(privateKey: try PrivateKey.generate(.p256), encryptionInfo: "info", origin: "https://shop.example")
    }

    @Test("annex-c: a whole state gives the session; each member missing, empty or of another type is named")
    func annexC() throws {
        let state = try Self.annexCState()
        let session = try AnnexCFlow.session(state, request: nil)
        #expect(session.encryptionInfo == "info" && session.origin == "https://shop.example")
        let names = try #require(state.value.members).map(\.0)
        #expect(names == ["encryptionInfo", "origin", "privateKey"])
        for name in names {
            for broken in [try state.setting(name, nil), try state.setting(name, .string(""))] {
                #expect(throws: VerificationError(.inputMalformed, "the kept annex-c state has no \(name); create the request again")) {
                    try AnnexCFlow.session(broken, request: nil)
                }
            }
            #expect(throws: VerificationError(.inputMalformed, "the kept annex-c state has an unusable \(name); create the request again")) {
                try AnnexCFlow.session(try state.setting(name, .int(1)), request: nil)
            }
        }
        #expect(throws: VerificationError(.inputMalformed, "the kept annex-c state's privateKey is not a PEM private key")) {
            try AnnexCFlow.session(try state.setting("privateKey", .string("not a key")), request: nil)
        }
    }

    @Test("apple-app: the nonce back; none, empty or not base64url is named")
    func apple() throws {
        let nonce = [UInt8](repeating: 7, count: 32)
        #expect(try AppleAppFlow.nonce(AppleAppFlow.state(nonce: nonce)) == nonce)
        for state in [KeptState.empty, try KeptState(["nonce": ""])] {
            #expect(throws: VerificationError(.inputMalformed, "the kept apple-app state has no nonce; create the request again")) {
                try AppleAppFlow.nonce(state)
            }
        }
        #expect(throws: VerificationError(.inputMalformed, "the kept apple-app state's nonce is not base64url")) {
            try AppleAppFlow.nonce(try KeptState(["nonce": "%%%"]))
        }
    }

    @Test("members another reader added beside a format's are kept whole and ignored by the format; on a clash the added one wins")
    func merging() throws {
        let nonce = [UInt8](repeating: 9, count: 32)
        let state = try AppleAppFlow.state(nonce: nonce).merging(try KeptState(["server.redirectUri": "https://shop.example/done"]))
        #expect(state["server.redirectUri"] == .string("https://shop.example/done"))
        #expect(try AppleAppFlow.nonce(state) == nonce)
        #expect(try KeptState(json: Array(state.json.utf8)) == state)
        let replaced = state.merging(try KeptState(["nonce": Base64URL.encode([1, 2, 3])]))
        #expect(try AppleAppFlow.nonce(replaced) == [1, 2, 3])
    }

    @Test("printing a kept state shows its member names, never a key or a nonce")
    func printing() throws {
        let nonce = [UInt8](repeating: 0xAB, count: 32)
        let state = try AppleAppFlow.state(nonce: nonce).merging(try Self.annexCState())
        for text in [String(describing: state), String(reflecting: state), { var out = ""; dump(state, to: &out); return out }()] {
            #expect(text.contains("nonce") && text.contains("privateKey"), "\(text)")
            #expect(!text.contains(Base64URL.encode(nonce)) && !text.contains("PRIVATE KEY"), "\(text)")
        }
    }

    @Test("read back from storage: anything but one JSON object within the size limit is refused by name")
    func readBack() throws {
        #expect(try KeptState(json: Array("{}".utf8)) == .empty)
        let refused = VerificationError(.inputMalformed, "the kept state is not one JSON object of at most \(KeptState.maxBytes) bytes")
        for text in ["", "[]", "\"x\"", "{", "{\"a\":1,\"a\":2}", "{\"a\":\"" + String(repeating: "x", count: KeptState.maxBytes) + "\"}"] {
            #expect(throws: refused) { try KeptState(json: Array(text.utf8)) }
        }
    }

    @Test("openid4vp: a state an earlier version kept (query ids joined by commas, the doctypes as JSON text) reads as today's")
    func openID4VPEarlierState() throws {
        let key = try PrivateKey.generate(.p256)
        let jwk = try EncryptionJWK(publicKey: key.publicKey, kid: "k1")
        let session = OpenID4VPSession(origin: "https://shop.example", nonce: "n", encryptionKey: key, jwk: jwk, queryIDs: ["a", "b"],
                                       queryDocTypes: ["a": "org.iso.18013.5.1.mDL", "b": "org.example.photo"], request: nil)
        let today = try OpenID4VPFlow.state(session)
        #expect(today["queryIDs"] == .array([.string("a"), .string("b")]))
        let earlier = try today.setting("queryIDs", .string("a,b"))
            .setting("queryDocTypes", .string(#"{"a":"org.iso.18013.5.1.mDL","b":"org.example.photo"}"#))
        for state in [today, earlier] {
            let read = try OpenID4VPFlow.session(state, request: nil)
            #expect(read.queryIDs == ["a", "b"] && read.queryDocTypes == session.queryDocTypes && read.jwk == jwk)
        }
        #expect(throws: VerificationError(.inputMalformed, "the kept openid4vp state has an unusable queryDocTypes; create the request again")) {
            try OpenID4VPFlow.session(try earlier.setting("queryDocTypes", .string("[1]")), request: nil)
        }
        // A nested value of the wrong type names the top-level member only, never the (stored) key under it.
        #expect(throws: VerificationError(.inputMalformed, "the kept openid4vp state has an unusable queryDocTypes; create the request again")) {
            try OpenID4VPFlow.session(try today.setting("queryDocTypes", .object([("\u{1B}[31mq", .int(1))])), request: nil)
        }
        #expect(throws: VerificationError(.inputMalformed, "the kept openid4vp state has no encryption key for its dc_api.jwt request")) {
            try OpenID4VPFlow.session(try today.setting("kid", nil), request: nil)
        }
    }
}
