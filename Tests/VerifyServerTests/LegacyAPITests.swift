import Foundation
import LoopbackClient
import Testing
@testable import VerifyServer

@Suite("verify-server: the deprecated unauthenticated routes answer only when the operator turns them on")
struct LegacyAPITests {
    static let createBody = #"{"format":"annex-c","origin":"https://evil.example","documents":\#(TransactionAPITests.documents)}"#

    @Test("the default, as a configuration file without legacyAPI gives it: off, whatever testMode and apiKeys say")
    func defaultIsOff() throws {
        #expect(ServerConfiguration().legacyAPI == .off)
        #expect(ConfigurationLoader.read(file: nil, environment: [:]).0.legacyAPI == .off)
        let (turnedOn, problems) = ConfigurationLoader.read(file: nil, environment: ["VERIFY_SERVER_LEGACY_API": "on"])
        #expect(problems.isEmpty && turnedOn.legacyAPI == .on)
        let (_, wrong) = ConfigurationLoader.read(file: nil, environment: ["VERIFY_SERVER_LEGACY_API": "yes"])
        #expect(wrong.joined().contains("beside-api-keys"), "\(wrong)")
    }

    @Test("YAML's unquoted off and on (read as booleans by YAML 1.1) are the choices off and on")
    func yamlBooleans() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("legacy-yaml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (text, expected) in [("off", LegacyAPI.off), ("on", LegacyAPI.on), ("\"off\"", LegacyAPI.off)] {
            let file = folder.appendingPathComponent("c.yaml")
            try "legacyAPI: \(text)\n".write(to: file, atomically: true, encoding: .utf8)
            let (configuration, problems) = ConfigurationLoader.read(file: file.path, environment: [:])
            #expect(problems.isEmpty && configuration.legacyAPI == expected, "\(text): \(problems)")
        }
    }

    @Test("off (the default) with API keys and test mode off: POST /v1/requests for any origin and POST /v1/verify answer 404 api.legacy_off; the backend API answers")
    func closedBesideKeys() async throws {
        let key = TransactionAPITests.key("shop")
        try await TransactionAPITests.withServer([key], configure: { $0.legacyAPI = ServerConfiguration().legacyAPI }) { server, _ in
            let create = try await server.client.send(method: .POST, path: "/v1/requests", body: Array(Self.createBody.utf8))
            #expect(create.status == 404)
            #expect(try errorCode(create) == "api.legacy_off")
            #expect(create.text.contains("POST /v1/transactions"))
            let verify = try await server.client.send(method: .POST, path: "/v1/verify",
                                                      body: Array(verifyJSON(StoredRequest.newID(), response: "AAAA").utf8))
            #expect(verify.status == 404)
            #expect(try errorCode(verify) == "api.legacy_off")
            #expect(try await TransactionAPITests.create(server, key).status == 201)
        }
    }

    @Test("on beside API keys is a configuration problem that names beside-api-keys; beside-api-keys serves the routes")
    func onlyWhenAllowedBesideKeys() async throws {
        let key = TransactionAPITests.key("shop")
        var configuration = ServerConfiguration()
        configuration.apiKeys = [key.entry]
        configuration.legacyAPI = .on
        #expect(configuration.problems.contains { $0.contains("legacyAPI: on") && $0.contains("beside-api-keys") })
        configuration.legacyAPI = .besideAPIKeys
        #expect(!configuration.problems.contains { $0.contains("legacyAPI") })
        try await TransactionAPITests.withServer([key], configure: { $0.legacyAPI = .besideAPIKeys }) { server, _ in
            let create = try await server.client.send(method: .POST, path: "/v1/requests", body: Array(Self.createBody.utf8))
            #expect(create.status == 201)
        }
    }

    @Test("on without API keys serves them")
    func onWithoutKeys() async throws {
        try await TransactionAPITests.withServer([], configure: { $0.legacyAPI = .on }) { server, _ in
            let create = try await server.client.send(method: .POST, path: "/v1/requests", body: Array(Self.createBody.utf8))
            #expect(create.status == 201)
        }
    }
}
