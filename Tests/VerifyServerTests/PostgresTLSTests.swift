import Foundation
import Testing
import TestSupport
import VerifyServer

/// PostgreSQL over TLS with the server's certificate checked (`sslmode=verify-ca|verify-full`, `sslrootcert`), the
/// password apart from the URL, and `verify-server --check-config --connect`.
///
/// The cluster `.ci/run` starts has ssl=on with a throwaway CA (`VERIFY_SERVER_TEST_POSTGRES_CA`) whose server
/// certificate names localhost only (not 127.0.0.1), and a second CA it does not chain to (`VERIFY_SERVER_TEST_POSTGRES_OTHER_CA`).
@Suite("verify-server PostgreSQL TLS and --check-config --connect")
struct PostgresTLSTests {
    struct Cluster {
        let url: URLComponents
        let password: String
        let ca: String
        let otherCA: String

        /// The cluster's URL with `host`, no password, and `query`.
        func url(host: String = "localhost", query: String) -> String {
            var components = url
            components.host = host
            components.password = nil
            components.query = query
            return components.string ?? ""
        }
    }

    static var cluster: Cluster? {
        let environment = ProcessInfo.processInfo.environment
        guard let text = TestPostgres.url, let components = URLComponents(string: text), let password = components.password,
              let ca = environment["VERIFY_SERVER_TEST_POSTGRES_CA"], let otherCA = environment["VERIFY_SERVER_TEST_POSTGRES_OTHER_CA"]
        else { return nil }
        return Cluster(url: components, password: password, ca: ca, otherCA: otherCA)
    }

    static let skipReason: Comment =
        "VERIFY_SERVER_TEST_POSTGRES_URL/_CA/_OTHER_CA are not set: PostgreSQL TLS tests skipped (.ci/run starts a server with TLS and sets them)"

    /// Runs `verify-server --check-config --connect` with `environment` (plus the sample's keys) and returns its exit
    /// status, standard output and standard error.
    static func checkConfig(_ environment: [String: String], connect: Bool = true) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = MdocVerifyCLI.builtProduct("verify-server")
        process.arguments = ["--check-config"] + (connect ? ["--connect"] : [])
        process.environment = [
            "VERIFY_SERVER_MERCHANT_ID": "m", "VERIFY_SERVER_TEAM_ID": "t",
            "VERIFY_SERVER_DECRYPTION_KEYS": AppleSample.keyPath, "VERIFY_SERVER_TRUST_STORE": AppleSample.rootPath,
            "VERIFY_SERVER_STORE_TIMEOUT": "5", "VERIFY_SERVER_TEST_MODE": "true",
        ].merging(environment) { _, new in new }
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    @Test("verify-full with the right CA: the server starts on PostgreSQL, creates and verifies; the password from a file",
          .enabled(if: cluster != nil, skipReason))
    func verifyFullServes() async throws {
        let cluster = try #require(Self.cluster)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pg-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let passwordFile = folder.appendingPathComponent("password").path
        try Data((cluster.password + "\n").utf8).write(to: URL(fileURLWithPath: passwordFile))

        var configuration = AppleSample.configuration()
        let (read, problems) = ConfigurationLoader.read(file: nil, environment: [
            "VERIFY_SERVER_STORE_URL": cluster.url(query: "sslmode=verify-full&sslrootcert=\(cluster.ca)"),
            "VERIFY_SERVER_STORE_PASSWORD_FILE": passwordFile,
        ])
        #expect(problems.isEmpty, "\(problems)")
        configuration.store = read.store
        configuration.storePassword = read.storePassword
        // Other suites hold locks on the shared database on purpose (HungStoreTests): the schema's preparation may wait.
        configuration.storeTimeout = 30
        #expect(configuration.problems.isEmpty, "\(configuration.problems)")
        #expect(await configuration.checkStoreConnection(logger: ServerFixture.quietLogger) == [])
        try await ServerFixture.withServer(configuration) { server in
            #expect(server.store.kind == "postgres")
            let ready = try await server.client.get("/readyz")
            #expect(ready.status == 200, "\(ready.text)")
            let created = try await server.client.post("/v1/requests", json: AppleSample.createBody)
            #expect(created.status == 201, "\(created.text)")
        }
    }

    @Test("--check-config --connect: verify-full and verify-ca reach the database; a wrong CA, a name the certificate lacks, a missing or wrong password are one clear line, exit 2",
          .enabled(if: cluster != nil, skipReason))
    func checkConfigConnect() throws {
        let cluster = try #require(Self.cluster)
        let password = ["VERIFY_SERVER_STORE_PASSWORD": cluster.password]

        let good = try Self.checkConfig(password.merging(["VERIFY_SERVER_STORE_URL": cluster.url(query: "sslmode=verify-full&sslrootcert=\(cluster.ca)")]) { $1 })
        #expect(good.status == 0, "\(good.err)")
        #expect(good.out.contains("configuration OK") && good.out.contains("(reached)"), "\(good.out)")
        // verify-ca checks the chain, not the name: 127.0.0.1, which the certificate does not name, passes.
        let byAddress = try Self.checkConfig(password.merging(["VERIFY_SERVER_STORE_URL": cluster.url(host: "127.0.0.1", query: "sslmode=verify-ca&sslrootcert=\(cluster.ca)")]) { $1 })
        #expect(byAddress.status == 0, "\(byAddress.err)")

        let wrongCA = try Self.checkConfig(password.merging(["VERIFY_SERVER_STORE_URL": cluster.url(query: "sslmode=verify-full&sslrootcert=\(cluster.otherCA)")]) { $1 })
        #expect(wrongCA.status == 2)
        let lines = wrongCA.err.split(separator: "\n")
        #expect(lines.count == 2, "\(wrongCA.err)")
        #expect(lines.first?.hasPrefix("verify-server: configuration: store postgres://") == true, "\(wrongCA.err)")
        #expect(lines.first?.hasSuffix("(sslmode=verify-full): TLS: the server's certificate does not chain to sslrootcert \(cluster.otherCA)") == true,
                "\(wrongCA.err)")

        let wrongName = try Self.checkConfig(password.merging(["VERIFY_SERVER_STORE_URL": cluster.url(host: "127.0.0.1", query: "sslmode=verify-full&sslrootcert=\(cluster.ca)")]) { $1 })
        #expect(wrongName.status == 2)
        #expect(wrongName.err.contains("TLS: the server's certificate does not name 127.0.0.1"), "\(wrongName.err)")

        // No password: PostgreSQL's own refusal, named.
        let noPassword = try Self.checkConfig(["VERIFY_SERVER_STORE_URL": cluster.url(query: "sslmode=verify-full&sslrootcert=\(cluster.ca)")])
        #expect(noPassword.status == 2)
        #expect(noPassword.err.contains("configuration: store postgres://"), "\(noPassword.err)")
        let wrongPassword = try Self.checkConfig(["VERIFY_SERVER_STORE_URL": cluster.url(query: "sslmode=verify-full&sslrootcert=\(cluster.ca)"),
                                                  "VERIFY_SERVER_STORE_PASSWORD": "not-the-password-\(UUID().uuidString)"])
        #expect(wrongPassword.status == 2)
        #expect(wrongPassword.err.contains("SQLSTATE 28P01"), "\(wrongPassword.err)")
        #expect(!wrongPassword.err.contains("not-the-password"))
    }

    @Test("--check-config without --connect says it did not contact the store; --connect to a closed port is one line, exit 2")
    func unreachable() throws {
        let url = "postgres://verify_server@127.0.0.1:1/verify_server"
        let plain = try Self.checkConfig(["VERIFY_SERVER_STORE_URL": url], connect: false)
        #expect(plain.status == 0, "\(plain.err)")
        #expect(plain.out.contains("not contacted: add --connect"), "\(plain.out)")
        let connect = try Self.checkConfig(["VERIFY_SERVER_STORE_URL": url, "VERIFY_SERVER_MERCHANT_ID": ""])
        #expect(connect.status == 2)
        let lines = connect.err.split(separator: "\n")
        // The configuration's own problem and the store's, one line each, then the summary.
        #expect(lines.count == 3, "\(connect.err)")
        #expect(lines.contains { $0.contains("merchantID is missing") })
        #expect(lines.contains { $0.hasSuffix("store postgres://verify_server@127.0.0.1:1/verify_server (sslmode=disable): "
                + "nothing accepts connections at 127.0.0.1:1 (connection refused)") }, "\(connect.err)")
    }

    @Test("--check-config --connect also downloads each VICAL with a url: one line for one that cannot be fetched; plain --check-config does not")
    func vicalSources() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vical-check-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = VectorFiles.url("Certificates/vical-roots/aamva-dts-root.pem").path
        let environment = ["VERIFY_SERVER_STORE_URL": "memory:", "VERIFY_SERVER_VICAL_CACHE_DIRECTORY": folder.path,
                           "VERIFY_SERVER_VICALS": "http://127.0.0.1:1/vical.cbor=\(root)"]
        let plain = try Self.checkConfig(environment, connect: false)
        #expect(plain.status == 0, "\(plain.err)")
        let connect = try Self.checkConfig(environment)
        #expect(connect.status == 2)
        let lines = connect.err.split(separator: "\n")
        #expect(lines.count == 2, "\(connect.err)")
        #expect(lines.first?.contains("vical http://127.0.0.1:1/vical.cbor: the download failed") == true, "\(connect.err)")
    }

    @Test("the store URL: verify modes need sslrootcert, which must be PEM; the password in one place only, never in the config file")
    func configuration() throws {
        #expect(throws: RequestStoreError.self) { try PostgresLocation(url: "postgres://u@db/x?sslmode=verify-full") }
        #expect(throws: RequestStoreError.self) { try PostgresLocation(url: "postgres://u@db/x?sslmode=verify-ca&sslrootcert=/nonexistent.pem") }
        #expect(throws: RequestStoreError.self) { try PostgresLocation(url: "postgres://u@db/x?sslmode=allow") }
        let system = try PostgresLocation(url: "postgres://u@db/x?sslmode=verify-full&sslrootcert=system")
        #expect(system.sslMode == "verify-full" && system.sslRootCert == "system")
        let fromRoot = try PostgresLocation(url: "postgres://u@db/x?sslmode=verify-ca&sslrootcert=\(AppleSample.rootPath)")
        #expect(fromRoot.sslMode == "verify-ca")

        let (twice, _) = ConfigurationLoader.read(file: nil, environment: [
            "VERIFY_SERVER_STORE_URL": "postgres://u:inurl@db/x", "VERIFY_SERVER_STORE_PASSWORD": "apart"])
        #expect(twice.problems.contains { $0.contains("password is given twice") })
        #expect(!twice.problems.joined().contains("apart") && !twice.problems.joined().contains("inurl"))
        #expect("\(twice.storePassword.map { "\($0)" } ?? "")" == "(redacted)")
        var dumped = ""
        dump(twice.storePassword, to: &dumped)
        #expect(!dumped.contains("apart"), "\(dumped)")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pg-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("config.json").path
        try Data(#"{"storeURL": "postgres://u@db/x", "storePassword": "in-the-file"}"#.utf8).write(to: URL(fileURLWithPath: file))
        let (_, problems) = ConfigurationLoader.read(file: file, environment: [:])
        #expect(problems.contains { $0.contains("`storePassword` is a secret") }, "\(problems)")
        #expect(!problems.joined().contains("in-the-file"))
        let (missing, missingProblems) = ConfigurationLoader.read(file: nil, environment: ["VERIFY_SERVER_STORE_PASSWORD_FILE": folder.appendingPathComponent("none").path])
        #expect(missing.storePassword == nil)
        #expect(missingProblems.contains { $0.contains("VERIFY_SERVER_STORE_PASSWORD_FILE cannot read") }, "\(missingProblems)")
    }
}

