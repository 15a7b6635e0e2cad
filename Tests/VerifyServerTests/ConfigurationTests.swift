import CryptoCore
import Foundation
import Testing
import TestSupport
import VerifyServer

@Suite("verify-server configuration: file, environment overrides, one message per problem")
struct ConfigurationTests {
    /// A temporary folder removed after `body`.
    static func withFolder<T>(_ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verify-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }

    static func problems(_ body: () throws -> Void) -> [String] {
        do {
            try body()
            return []
        } catch let error as ConfigurationProblems {
            return error.problems
        } catch {
            return ["unexpected \(error)"]
        }
    }

    @Test("a YAML file, overridden by VERIFY_SERVER_* variables")
    func yamlAndEnvironment() throws {
        try Self.withFolder { folder in
            let file = folder.appendingPathComponent("verify-server.yaml").path
            try """
                host: 0.0.0.0
                port: 9000
                merchantID: merchant.com.example
                teamID: ABCDE12345
                decryptionKeys: [/keys/a.pem, /keys/b.pem]
                trustStore: [Certificates/production]
                requestTTL: 120
                bodyLimit: 65536
                storeURL: postgres://verify:pw@127.0.0.1:5432/verify
                profile: strict
                logLevel: debug
                memoryTrimInterval: 0
                """.write(toFile: file, atomically: true, encoding: .utf8)
            let configuration = try ConfigurationLoader.load(file: file, environment: [
                "VERIFY_SERVER_PORT": "9100", "VERIFY_SERVER_DECRYPTION_KEYS": "/keys/c.pem,/keys/d.pem",
                "VERIFY_SERVER_REQUEST_TTL": "30.5",
            ])
            #expect(configuration.host == "0.0.0.0")
            #expect(configuration.port == 9100)
            #expect(configuration.merchantID == "merchant.com.example")
            #expect(configuration.decryptionKeyPaths == ["/keys/c.pem", "/keys/d.pem"])
            #expect(configuration.requestTTL == 30.5)
            #expect(configuration.bodyLimit == 65536)
            #expect(configuration.store == .postgres(url: "postgres://verify:pw@127.0.0.1:5432/verify"))
            #expect(configuration.profile == .strict)
            #expect(configuration.logLevel == .debug)
            #expect(configuration.memoryTrimInterval == 0)
            #expect(configuration.testMode == false)
        }
    }

    @Test("a JSON file named by VERIFY_SERVER_CONFIG; defaults for what it leaves out")
    func jsonDefaults() throws {
        try Self.withFolder { folder in
            let file = folder.appendingPathComponent("verify-server.json").path
            try #"{"merchantID": "m", "teamID": "t", "decryptionKeys": ["/k.pem"], "testMode": true}"#
                .write(toFile: file, atomically: true, encoding: .utf8)
            let configuration = try ConfigurationLoader.load(file: nil, environment: ["VERIFY_SERVER_CONFIG": file])
            #expect(configuration.testMode)
            #expect(configuration.port == 8080)
            #expect(configuration.requestTTL == 300)
            #expect(configuration.memoryTrimInterval == 10)
            #expect(configuration.store == .sqlite(path: "verify-server.sqlite"))
            #expect(configuration.trustStorePaths.isEmpty)  // the embedded production bundle
        }
    }

    @Test("bad values and unknown keys: one message each, naming the key")
    func badValues() throws {
        try Self.withFolder { folder in
            let file = folder.appendingPathComponent("c.json").path
            try #"{"merchantID": "m", "teamID": "t", "decryptionKeys": ["/k.pem"], "prot": 1, "profile": "lenient"}"#
                .write(toFile: file, atomically: true, encoding: .utf8)
            let problems = Self.problems {
                _ = try ConfigurationLoader.load(file: file, environment: [
                    "VERIFY_SERVER_PORT": "eighty", "VERIFY_SERVER_STORE_URL": "mysql://x", "VERIFY_SERVER_TEST_MODE": "maybe",
                    "VERIFY_SERVER_VERIFICATION_TIME": "2022-06-01T00:00:00Z", "VERIFY_SERVER_MEMORY_TRIM_INTERVAL": "-1",
                    "VERIFY_SERVER_BODY_TIMEOUT": "1e12",
                ])
            }
            #expect(problems.count == 8, "\(problems)")
            #expect(problems.contains { $0.contains("memoryTrimInterval must be 0 (never) or a positive number") })
            // Beyond a day a timer's nanoseconds would not fit 64 bits; refused at start, not at the first request.
            #expect(problems.contains { $0.contains("bodyTimeout must be a positive number of seconds, at most 86400") })
            #expect(problems.contains { $0.contains("unknown key `prot`") })
            #expect(problems.contains { $0.contains("profile") && $0.contains("strict") })
            #expect(problems.contains { $0.contains("VERIFY_SERVER_PORT must be an integer") })
            #expect(problems.contains { $0.contains("VERIFY_SERVER_STORE_URL") })
            #expect(problems.contains { $0.contains("VERIFY_SERVER_TEST_MODE must be true or false") })
            #expect(problems.contains { $0.contains("verificationTime") && $0.contains("test mode") })
        }
    }

    @Test("refuses to start: unreadable key, non-P-256 key, Apple's test key outside test mode, empty trust store, memory store")
    func startupProblems() throws {
        try Self.withFolder { folder in
            let p384 = folder.appendingPathComponent("p384.pem").path
            try PrivateKey.generate(.p384).pkcs8PEM().write(toFile: p384, atomically: true, encoding: .utf8)
            let emptyTrust = folder.appendingPathComponent("trust").path
            try FileManager.default.createDirectory(atPath: emptyTrust, withIntermediateDirectories: true)
            var configuration = AppleSample.configuration()
            configuration.testMode = false
            configuration.verificationTime = nil
            configuration.decryptionKeyPaths = [folder.appendingPathComponent("missing.pem").path, p384, AppleSample.keyPath]
            configuration.trustStorePaths = [emptyTrust]
            let problems = Self.problems { _ = try VerifierRuntime.load(configuration) }
            #expect(problems.count == 5, "\(problems)")
            #expect(problems.contains { $0.contains("missing.pem") && $0.contains("cannot read") })
            #expect(problems.contains { $0.contains("p384.pem") && $0.contains("P-256") })
            #expect(problems.contains { $0.contains("merchant_encryption.key") && $0.contains("test key") })
            #expect(problems.contains { $0.contains("trust store") && $0.contains("no certificate") })
            #expect(problems.contains { $0.contains("memory: store is for tests only") })
        }
    }

    @Test("the production example passes the start's checks as shipped: production mode, legacy routes off, the embedded bundle, an API key entry that matches no key")
    func productionExample() throws {
        let configuration = try ConfigurationLoader.load(file: VectorFiles.url("docs/deploy/verify-server.production.yaml").path, environment: [:])
        #expect(!configuration.testMode)
        #expect(configuration.legacyAPI == .off)
        #expect(configuration.trustStorePaths.isEmpty)
        #expect(configuration.problems.isEmpty, "\(configuration.problems)")
        #expect(configuration.apiKeys.count == 1)
        let runtime = try VerifierRuntime.load(configuration)
        #expect(runtime.trustStore.anchors.count > 10)
        #expect(runtime.flows[.appleApp] == nil)
    }

    @Test("the README's example configuration loads: test mode, the kit's and Apple's test IACAs, the embedded store")
    func exampleConfiguration() throws {
        let configuration = try ConfigurationLoader.load(file: VectorFiles.url("docs/verify-server.example.yaml").path, environment: [:])
        #expect(configuration.testMode)
        #expect(configuration.store == .sqlite(path: "verify-server.sqlite"))
        // Kit responses are made for now: the clock is not pinned (QuickStartTests runs the README's sequence on it).
        #expect(configuration.verificationTime == nil)
        #expect(configuration.trustStorePaths.contains("Certificates/test/mdoctesting-seed-1-iaca.pem"))
        // Paths in the example are relative to the repository root, where the README runs it.
        var resolved = configuration
        resolved.decryptionKeyPaths = configuration.decryptionKeyPaths.map { VectorFiles.url($0).path }
        resolved.trustStorePaths = configuration.trustStorePaths.map { VectorFiles.url($0).path }
        #expect(try VerifierRuntime.load(resolved).keyCount == 1)
    }

    @Test("the executable prints one line per problem and exits 2")
    func executableRefuses() throws {
        let (status, text) = try ServerProcess.runToExit(environment: [
            "VERIFY_SERVER_MERCHANT_ID": "m", "VERIFY_SERVER_DECRYPTION_KEYS": "/nonexistent.pem", "VERIFY_SERVER_TRUST_STORE": AppleSample.rootPath,
        ])
        #expect(status == 2)
        let lines = text.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("verify-server: configuration: ") }.count == 2, "\(text)")
        #expect(text.contains("teamID is missing"))
        #expect(text.contains("/nonexistent.pem: cannot read the file"))
    }
}
