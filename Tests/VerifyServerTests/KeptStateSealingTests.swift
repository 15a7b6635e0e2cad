import CryptoCore
import MdocModel
import Testing
import Verifier
@testable import VerifyServer

/// The server's side of a kept state: sealing it whole, and reading its own members beside the format's.
@Suite("verify-server: kept state sealing and the server's own members")
struct KeptStateSealingTests {
    @Test("sealed: one member, the format's state back after opening; the seal's member beside another is not taken for a seal")
    func sealing() throws {
        let layer = SealedStateStore(base: InMemoryRequestStore(), key: try StoredSecretTests.key())
        let state = try AppleAppFlow.state(nonce: [UInt8](repeating: 5, count: 32)).merging(try KeptState(ServerKeptState(webhookURL: "https://hooks.example/x")))
        let sealed = try layer.seal(state, id: "r1")
        #expect(sealed.names == [SealedStateStore.field] && !sealed.json.contains("hooks.example"))
        #expect(try layer.open(sealed, id: "r1") == state)
        #expect(throws: RequestStoreError.self) { try layer.open(sealed, id: "r2") }
        let mixed = sealed.merging(KeptState.strings(["nonce": "x"]))
        #expect(throws: RequestStoreError.self) { try layer.open(mixed, id: "r1") }
    }

    @Test("the server's members: read when text, none when absent or of another type; the format's members are ignored")
    func serverMembers() throws {
        let both = try KeptState(ServerKeptState(redirectURI: "https://shop.example/done", webhookURL: "https://hooks.example/x"))
        #expect(ServerKeptState(both) == ServerKeptState(redirectURI: "https://shop.example/done", webhookURL: "https://hooks.example/x"))
        #expect(ServerKeptState(try AppleAppFlow.state(nonce: [1, 2, 3])) == ServerKeptState())
        let wrongType = try KeptState(json: Array(#"{"server.redirectUri": 5, "server.webhookURL": ["https://hooks.example/x"]}"#.utf8))
        #expect(ServerKeptState(wrongType) == ServerKeptState())
    }
}
