import CryptoCore
import MdocModel
import Testing
import Verifier

/// A flow reads its own kept state back, and says by name what an incomplete one lacks (the CLI's session.json and the
/// server's stored rows hand it over without knowing its keys).
@Suite("Kept state: each flow reads its own back and names what is missing")
struct KeptStateTests {
    static func annexCState() throws -> [String: String] {
        AnnexCFlow.state(privateKey: try PrivateKey.generate(.p256), encryptionInfo: "info", origin: "https://shop.example")
    }

    @Test("annex-c: a whole state gives the session; each member missing, empty or unreadable is named")
    func annexC() throws {
        let state = try Self.annexCState()
        let session = try AnnexCFlow.session(state, request: nil)
        #expect(session.encryptionInfo == "info" && session.origin == "https://shop.example")
        for key in state.keys.sorted() {
            for broken in [state.filter { $0.key != key }, state.merging([key: ""]) { $1 }] {
                #expect(throws: VerificationError(.inputMalformed, "the kept annex-c state has no \(key)")) {
                    try AnnexCFlow.session(broken, request: nil)
                }
            }
        }
        let notPEM = state.merging(["privateKey": "not a key"]) { $1 }
        #expect(throws: VerificationError(.inputMalformed, "the kept annex-c state's privateKey is not a PEM private key")) {
            try AnnexCFlow.session(notPEM, request: nil)
        }
    }

    @Test("apple-app: the nonce back; none, empty or not base64url is named")
    func apple() throws {
        let nonce = [UInt8](repeating: 7, count: 32)
        #expect(try AppleAppFlow.nonce(AppleAppFlow.state(nonce: nonce)) == nonce)
        for state in [[:], ["nonce": ""]] {
            #expect(throws: VerificationError(.inputMalformed, "the kept apple-app state has no nonce")) { try AppleAppFlow.nonce(state) }
        }
        #expect(throws: VerificationError(.inputMalformed, "the kept apple-app state's nonce is not base64url")) {
            try AppleAppFlow.nonce(["nonce": "%%%"])
        }
    }
}
