import Foundation
import MdocTesting
import MdocTestingServer
import Testing
import TestSupport

/// `mdocverify conformance run --target verify-server URL` against the built verify-server: every case with a request
/// flow passes (codes included), replays are refused, and a server that does not trust the corpus IACA is reported as
/// wrongly rejecting the positive controls.
@Suite("mdocverify conformance against verify-server")
struct ConformanceServerCLITests {
    /// The built verify-server on an ephemeral port, production mode, an SQLite store in `folder`.
    final class Server {
        let process = Process()
        let url: URL

        init(folder: URL, trust: URL, merchantKey: URL, extra: [String: String] = [:]) throws {
            process.executableURL = MdocVerifyCLI.builtProduct("verify-server")
            process.currentDirectoryURL = folder
            process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("VERIFY_SERVER_") }.merging([
                "VERIFY_SERVER_PORT": "0",
                // Servers of several tests run side by side: each its own free operator port.
                "VERIFY_SERVER_OPERATOR_PORT": "0",
                "VERIFY_SERVER_MERCHANT_ID": SimulatedCase.merchantID,
                "VERIFY_SERVER_TEAM_ID": SimulatedCase.teamID,
                "VERIFY_SERVER_DECRYPTION_KEYS": merchantKey.path,
                "VERIFY_SERVER_TRUST_STORE": trust.path,
                "VERIFY_SERVER_STORE_URL": "sqlite:" + folder.appendingPathComponent("store.sqlite").path,
                "VERIFY_SERVER_REVOCATION_FETCH": "false",
                // Hundreds of cases against one SQLite file while the whole suite runs: its syncs can stall for seconds,
                // which must not turn a case into a 503.
                "VERIFY_SERVER_STORE_TIMEOUT": "30",
                // The run without an API key uses the deprecated routes; with one (extra), they stay off.
                "VERIFY_SERVER_LEGACY_API": extra["VERIFY_SERVER_API_KEYS"] == nil ? "on" : "off",
            ].merging(extra) { _, new in new }) { _, new in new }
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = errors
            try process.run()
            // The log line "listening on http://127.0.0.1:PORT" names the port.
            var text = ""
            let handle = errors.fileHandleForReading
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { throw ServerFailure(description: "verify-server exited before listening:\n\(text)") }
                text += String(decoding: chunk, as: UTF8.self)
                if let range = text.range(of: "listening on http://"),
                   let end = text[range.upperBound...].firstIndex(where: { $0.isWhitespace }) {
                    url = try #require(URL(string: "http://" + text[range.upperBound..<end]))
                    break
                }
            }
            // Keep draining the log so the server never blocks on a full pipe.
            Thread.detachNewThread { while !handle.availableData.isEmpty {} }
        }

        func stop() {
            process.terminate()
            process.waitUntilExit()
        }
    }

    struct ServerFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// A temporary folder with the corpus IACA (or another) and a merchant key pair.
    static func setUp(trustCorpus: Bool) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mdoc-conformance-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let keys = try MdocVerifyCLI.run(["keygen", "--out", folder.path])
        #expect(keys.status == 0, "\(keys.stderr)")
        if trustCorpus {
            let trust = try MdocVerifyCLI.run(["conformance", "run", "--target", "verify-server", "http://127.0.0.1:9",
                                               "--write-trust", folder.appendingPathComponent("iaca.pem").path])
            #expect(trust.status == 0, "\(trust.stderr)")
        } else {
            try TestPKI(seed: 99).iacaPEM.write(to: folder.appendingPathComponent("iaca.pem"), atomically: true, encoding: .utf8)
        }
        return folder
    }

    @Test("every case with a request flow as expected, codes included; replays refused; device-response and revocation not applicable")
    func verifyServerPassesEveryCase() throws {
        let folder = try Self.setUp(trustCorpus: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try Server(folder: folder, trust: folder.appendingPathComponent("iaca.pem"),
                                merchantKey: folder.appendingPathComponent("merchant-private.pem"))
        defer { server.stop() }
        let results = folder.appendingPathComponent("results.json")
        let run = try MdocVerifyCLI.run(["conformance", "run", "--target", "verify-server", server.url.absoluteString,
                                         "--merchant-key", folder.appendingPathComponent("merchant-public.pem").path,
                                         "--expect-codes", "--strict", "--jobs", "2", "--json", results.path])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: results)) as? [String: Any])
        let summary = try #require(object["summary"] as? [String: Int])
        let corpus = ConformanceCorpus()
        // Without an API key a format fetched by reference does not apply: only the backend API reads its result.
        let applicable = corpus.cases.filter {
            $0.format.hasRequestFlow && $0.format.descriptor?.wire.byReference != true && $0.requires.isDisjoint(with: [.revocation, .certificateProfile])
        }
        #expect(summary["passed"] == applicable.count, "\(summary)")
        #expect(summary["not applicable"] == corpus.cases.count - applicable.count)
        let cases = try #require(object["cases"] as? [[String: Any]])
        let replay = try #require(cases.first { $0["id"] as? String == "annex-c/attack/replay" })
        #expect(replay["outcome"] as? String == "passed")
        #expect(replay["gotCodes"] as? [String] == ["nonce.replayed"])
    }

    /// The server with an API key (written to `folder/api-key`; also returned), a reader identity and the URL wallets
    /// reach it at, so that openid4vp-redirect is offered: its wallet fetches from the URL it publishes, so the port is
    /// chosen first.
    static func backendServer(_ folder: URL) throws -> (Server, String) {
        // A key the server is configured with (its SHA-256 under apiKeys), as `verify-server --new-api-key` prints it.
        let process = Process()
        process.executableURL = MdocVerifyCLI.builtProduct("verify-server")
        process.arguments = ["--new-api-key", "conformance"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = printed.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let key = try #require(lines.first { $0.hasPrefix("vsk_") })
        let sha256 = try #require(lines.first { $0.hasPrefix("sha256: ") }).dropFirst("sha256: ".count)
        try key.write(to: folder.appendingPathComponent("api-key"), atomically: true, encoding: .utf8)
        let port = try #require(LoopbackPort.free())
        let reader = VectorFiles.root.appendingPathComponent("TestVectors/reader")
        let server = try Server(folder: folder, trust: folder.appendingPathComponent("iaca.pem"),
                                merchantKey: folder.appendingPathComponent("merchant-private.pem"), extra: [
                                    "VERIFY_SERVER_API_KEYS": #"[{"id":"conformance","sha256":"\#(sha256)","origins":["https://shop.example"]}]"#,
                                    "VERIFY_SERVER_PORT": "\(port)", "VERIFY_SERVER_WALLET_BASE_URL": "http://127.0.0.1:\(port)",
                                    "VERIFY_SERVER_READER_KEY": reader.appendingPathComponent("reader-key.pem").path,
                                    "VERIFY_SERVER_READER_CERTIFICATES": reader.appendingPathComponent("reader-cert.pem").path,
                                ])
        return (server, key)
    }

    @Test("with --api-key-file the run goes through the backend API: transactions, the wallet-facing endpoint, the status")
    func transactionsAPI() throws {
        let folder = try Self.setUp(trustCorpus: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, _) = try Self.backendServer(folder)
        defer { server.stop() }
        let results = folder.appendingPathComponent("results.json")
        let run = try MdocVerifyCLI.run(["conformance", "run", "--target", "verify-server", server.url.absoluteString,
                                         "--merchant-key", folder.appendingPathComponent("merchant-public.pem").path,
                                         "--api-key-file", folder.appendingPathComponent("api-key").path,
                                         "--case", "annex-c/", "--case", "openid4vp/attack/", "--case", "apple-app/fault/mso-expired",
                                         "--case", "openid4vp-redirect/", "--expect-codes", "--strict", "--json", results.path])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: results)) as? [String: Any])
        let cases = try #require(object["cases"] as? [[String: Any]])
        let replay = try #require(cases.first { $0["id"] as? String == "openid4vp/attack/replay" })
        #expect(replay["outcome"] as? String == "passed")
        #expect(replay["gotCodes"] as? [String] == ["nonce.replayed"])
        // The redirect flow is driven as a wallet drives it: every one of its cases runs to its verdict (none skipped),
        // its replay refused at response_uri.
        let redirect = cases.filter { ($0["id"] as? String)?.hasPrefix("openid4vp-redirect/") == true }
        let expected = ConformanceCorpus().cases.filter {
            $0.format == .openID4VPRedirect && $0.requires.isDisjoint(with: [.revocation, .certificateProfile])
        }
        #expect(redirect.filter { $0["outcome"] as? String == "passed" }.count == expected.count, "\(redirect)")
        let redirectReplay = try #require(cases.first { $0["id"] as? String == "openid4vp-redirect/attack/replay" })
        #expect(redirectReplay["gotCodes"] as? [String] == ["nonce.replayed"])

        // A key the server does not know: every case is an error, none a verdict.
        try "vsk_not-a-configured-key".write(to: folder.appendingPathComponent("api-key"), atomically: true, encoding: .utf8)
        let refused = try MdocVerifyCLI.run(["conformance", "run", "--target", "verify-server", server.url.absoluteString,
                                             "--api-key-file", folder.appendingPathComponent("api-key").path, "--case", "annex-c/positive/mdl"])
        #expect(refused.stdout.contains("POST /v1/transactions answered 401"), "\(refused.stdout)")
    }

    @Test("--target http with a profile of verify-server's request API passes like --target verify-server; a profile that reads 422 as accepted is caught")
    func httpProfile() throws {
        let folder = try Self.setUp(trustCorpus: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try Server(folder: folder, trust: folder.appendingPathComponent("iaca.pem"),
                                merchantKey: folder.appendingPathComponent("merchant-private.pem"))
        defer { server.stop() }
        let base = server.url.absoluteString.hasSuffix("/") ? String(server.url.absoluteString.dropLast()) : server.url.absoluteString
        let template = try String(contentsOf: VectorFiles.url("Tests/ConformanceFixtures/verify-server-profile.json"), encoding: .utf8)
            .replacingOccurrences(of: "${env:VERIFY_SERVER_URL}", with: base)
        let profile = folder.appendingPathComponent("profile.json")
        try template.write(to: profile, atomically: true, encoding: .utf8)
        let run = try MdocVerifyCLI.run(["conformance", "run", "--target", "http", "--profile", profile.path,
                                         "--merchant-key", folder.appendingPathComponent("merchant-public.pem").path,
                                         "--case", "apple-app/", "--case", "openid4vp/attack/", "--expect-codes", "--strict"])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("not applicable"))

        // The same endpoints read by a careless integration: a 422 report counted as success, no verified flag.
        let careless = folder.appendingPathComponent("careless.json")
        try template.replacingOccurrences(of: #""accept": [200], "reject": [400, 404, 409, 410, 422], "verified": "/verified""#,
                                          with: #""accept": [200, 422], "reject": [400, 404, 409, 410]"#)
            .write(to: careless, atomically: true, encoding: .utf8)
        let caught = try MdocVerifyCLI.run(["conformance", "run", "--target", "http", "--profile", careless.path,
                                            "--case", "annex-c/fault/mso-expired", "--case", "annex-c/positive/mdl", "--case", "annex-c/attack/replay"])
        #expect(caught.status == 1)
        #expect(caught.stdout.contains("WRONGLY ACCEPTED (critical):\n  annex-c/fault/mso-expired ["), "\(caught.stdout)")
        #expect(!caught.stdout.contains("  annex-c/attack/replay ["), "a 409 replay is still a rejection")

        let missing = try MdocVerifyCLI.run(["conformance", "run", "--target", "http"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("--target http needs --profile FILE"))
    }

    @Test("--target http against a hostile endpoint: a redirect is not followed (the headers stay home), an answer past 8 MiB is refused; a profile member of the wrong type and an option of another target are usage errors")
    func hostileEndpoint() async throws {
        let server = try await RevocationListServer.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mdoc-conformance-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        server.publish(.redirect(server.url("/elsewhere")), at: "/moved")
        server.publish(.list([UInt8](repeating: 0x20, count: 9 << 20), contentType: "application/json"), at: "/huge")
        func profile(_ name: String, create: String, change: (String) -> String = { $0 }) throws -> String {
            let text = try String(contentsOf: VectorFiles.url("Tests/ConformanceFixtures/verify-server-profile.json"), encoding: .utf8)
                .replacingOccurrences(of: "${env:VERIFY_SERVER_URL}/v1/requests", with: server.url(create))
            let path = folder.appendingPathComponent(name).path
            try change(text).write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let moved = try MdocVerifyCLI.run(["conformance", "run", "--target", "http", "--profile", try profile("moved.json", create: "/moved"),
                                           "--case", "annex-c/positive/mdl"])
        #expect(moved.stdout.contains("ERROR:\n  annex-c/positive/mdl") && moved.stdout.contains("the create call answered 302"), "\(moved.stdout)")
        #expect(server.requests("/elsewhere") == 0, "the redirect was followed")
        let huge = try MdocVerifyCLI.run(["conformance", "run", "--target", "http", "--profile", try profile("huge.json", create: "/huge"),
                                          "--case", "annex-c/positive/mdl"])
        #expect(huge.stdout.contains("answered more than 8388608 bytes; refused"), "\(huge.stdout)")
        // A server slower than --timeout: the call ends at the limit, as an error of the case.
        server.setDelay(.seconds(5))
        let slow = try MdocVerifyCLI.run(["conformance", "run", "--target", "http", "--profile", try profile("slow.json", create: "/moved"),
                                          "--case", "annex-c/positive/mdl", "--timeout", "1"])
        #expect(slow.stdout.contains("ERROR:\n  annex-c/positive/mdl") && slow.stdout.contains("gave no whole answer within 1.0 s"),
                "\(slow.stdout)")
        server.setDelay(.zero)
        // A 3xx whose body never ends: the call still ends at --timeout (a hang guard kills a run that does not).
        server.publish(.endlessRedirect(server.url("/elsewhere")), at: "/endless")
        let endless = try MdocVerifyCLI.run(["conformance", "run", "--target", "http", "--profile", try profile("endless.json", create: "/endless"),
                                             "--case", "annex-c/positive/mdl", "--timeout", "2"], hangGuard: 60)
        #expect(endless.status == 0 && endless.stdout.contains("gave no whole answer within 2.0 s"), "\(endless.status) \(endless.stdout)")
        await server.stop()

        let wrongTypes: [(String, String, String)] = [
            (#""formats": ["apple-app", "annex-c", "openid4vp"]"#, #""formats": "annex-c""#, "formats must be a list of format names"),
            (#""headers": {"X-Conformance": "${env:CONFORMANCE_RUN_LABEL}"}"#, #""headers": {"X-Conformance": 1}"#, "headers must be an object of strings"),
            (#""accept": [200]"#, #""accept": ["200"]"#, "verdict.accept must be a list of HTTP statuses"),
            (#""accept": [200]"#, #""accept": [true]"#, "verdict.accept must be a list of HTTP statuses (100–599)"),
            (#""accept": [200]"#, #""accept": [700]"#, "verdict.accept must be a list of HTTP statuses (100–599)"),
            (#""verified": "/verified""#, #""verified": true"#, "verdict.verified must be a JSON pointer"),
            (#""verdict":"#, #""verdcit":"#, #""verdcit" is not a profile member; the profile has origin, formats"#),
            (#""accept": [200]"#, #""acept": [200]"#, #""verdict.acept" is not a profile member; verdict has accept, reject"#),
        ]
        for (index, (from, to, message)) in wrongTypes.enumerated() {
            let path = try profile("wrong-\(index).json", create: "/v1/requests") { $0.replacingOccurrences(of: from, with: to) }
            let run = try MdocVerifyCLI.run(["conformance", "run", "--target", "http", "--profile", path, "--case", "annex-c/positive/mdl"])
            #expect(run.status == 2 && run.stderr.contains(message), "\(to): \(run.stderr)")
        }
        let key = folder.appendingPathComponent("key").path
        try "secret".write(toFile: key, atomically: true, encoding: .utf8)
        let keyForHTTP = try MdocVerifyCLI.run(["conformance", "run", "--target", "http", "--profile", try profile("ok.json", create: "/v1/requests"),
                                                "--api-key-file", key])
        #expect(keyForHTTP.status == 2 && keyForHTTP.stderr.contains("--api-key-file is for --target verify-server only"), "\(keyForHTTP.stderr)")
        let profileForServer = try MdocVerifyCLI.run(["conformance", "run", "--target", "verify-server", "http://127.0.0.1:9", "--profile", key])
        #expect(profileForServer.status == 2 && profileForServer.stderr.contains("--profile is for --target http only"), "\(profileForServer.stderr)")
        let originForHTTP = try MdocVerifyCLI.run(["conformance", "run", "--target", "http", "--profile", try profile("ok.json", create: "/v1/requests"),
                                                   "--origin", "https://other.example"])
        #expect(originForHTTP.status == 2 && originForHTTP.stderr.contains("--origin is for --target verify-server only"), "\(originForHTTP.stderr)")
        let teamForCommand = try MdocVerifyCLI.run(["conformance", "run", "--target", "command", "--team-id", "ABC", "--", "true"])
        #expect(teamForCommand.status == 2 && teamForCommand.stderr.contains("--team-id is for --target verify-server or http only"),
                "\(teamForCommand.stderr)")
    }

    @Test("a server that trusts another IACA wrongly rejects the positive controls and is reported so")
    func untrustingServerIsReported() throws {
        let folder = try Self.setUp(trustCorpus: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try Server(folder: folder, trust: folder.appendingPathComponent("iaca.pem"),
                                merchantKey: folder.appendingPathComponent("merchant-private.pem"))
        defer { server.stop() }
        let run = try MdocVerifyCLI.run(["conformance", "run", "--target", "verify-server", server.url.absoluteString,
                                         "--case", "annex-c/positive/", "--case", "annex-c/fault/mso-expired", "--strict"])
        #expect(run.status == 1, "--strict fails on a wrong rejection")
        #expect(run.stdout.contains("WRONGLY REJECTED:\n  annex-c/positive/mdl ["))
        #expect(run.stdout.contains("issuer.chain_untrusted"))
        #expect(!run.stdout.contains("WRONGLY ACCEPTED"))
    }

    @Test("an unreachable server is an error per case, not a verdict")
    func unreachableServer() throws {
        let run = try MdocVerifyCLI.run(["conformance", "run", "--target", "verify-server", "http://127.0.0.1:9",
                                         "--case", "annex-c/positive/mdl", "--timeout", "5"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("ERROR:\n  annex-c/positive/mdl"))
        let usage = try MdocVerifyCLI.run(["conformance", "run", "--target", "verify-server"])
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("needs the server's base URL"))
    }
}
