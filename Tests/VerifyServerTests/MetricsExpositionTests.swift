import Foundation
import Testing
import TestSupport
@testable import VerifyServer
import Verifier

/// `/metrics`: a `# HELP` and `# TYPE` line for every family, HTTP request metrics, and the format of refused verify
/// calls.
@Suite("verify-server /metrics exposition")
struct MetricsExpositionTests {
    /// The families of an exposition: name → (has HELP, has TYPE), and whether each HELP comes right before its TYPE.
    static func families(_ text: String) -> (help: Set<String>, type: Set<String>, helpBeforeType: Bool) {
        var help = Set<String>(), type = Set<String>()
        var ordered = true
        var previous = ""
        for line in text.split(separator: "\n").map(String.init) {
            let parts = line.split(separator: " ", maxSplits: 3).map(String.init)
            if parts.count >= 3, parts[0] == "#", parts[1] == "HELP" { help.insert(parts[2]) }
            if parts.count >= 3, parts[0] == "#", parts[1] == "TYPE" {
                type.insert(parts[2])
                if !previous.hasPrefix("# HELP \(parts[2]) ") { ordered = false }
            }
            previous = line
        }
        return (help, type, ordered)
    }

    @Test("every family on /metrics has a # HELP line right before its # TYPE line")
    func helpForEveryFamily() async throws {
        try await ServerFixture.withServer { server in
            let request = AppleSample.request()
            try await server.store.insert(request)
            _ = try await server.client.post("/v1/verify", json: AppleSample.verifyBody(request.id))
            _ = try await server.client.post("/v1/requests", json: AppleSample.createBody)
            _ = try await server.app.purgeExpiredRequests()
            _ = try await server.client.get("/metrics")
            let text = try await server.client.get("/metrics").text
            let families = Self.families(text)
            #expect(families.type.count >= 10, "\(text)")
            #expect(families.type == families.help, "without HELP: \(families.type.subtracting(families.help).sorted())")
            #expect(families.helpBeforeType)
        }
    }

    /// Metric names as written in the sources that record them (`label: "…"`, or the registry's `(name: "…"`).
    static func recordedNames() throws -> Set<String> {
        var names = Set<String>()
        for folder in ["Sources/VerifyServer", "Sources/RevocationFetch"] {
            let root = VectorFiles.url(folder)
            let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
            for file in files where file.pathExtension == "swift" {
                let text = try String(contentsOf: file, encoding: .utf8)
                for marker in ["label: \"", "(name: \""] {
                    var rest = text[...]
                    while let range = rest.range(of: marker) {
                        let name = rest[range.upperBound...].prefix { $0 != "\"" }
                        if name.hasSuffix("_total") || name.hasSuffix("_seconds") || name.contains("verify_server_") || name.hasPrefix("revocation_")
                            || name.hasPrefix("process_") {
                            names.insert(String(name))
                        }
                        rest = rest[range.upperBound...]
                    }
                }
            }
        }
        return names
    }

    @Test("the process's figures and the build: memory, CPU, file descriptors, start time, build_info with the version")
    func processAndBuild() async throws {
        try await ServerFixture.withServer { server in
            let text = try await server.client.get("/metrics").text
            func value(_ name: String) -> Double? {
                text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
            }
            #expect(text.contains("verify_server_build_info{version=\"\(ProductVersion.package)\"} 1"), "\(text)")
            #expect((value("process_resident_memory_bytes") ?? 0) > 1_000_000)
            #expect((value("process_virtual_memory_bytes") ?? 0) >= (value("process_resident_memory_bytes") ?? .infinity))
            #expect((value("process_open_fds") ?? 0) >= 3)
            #expect((value("process_max_fds") ?? 0) >= (value("process_open_fds") ?? .infinity))
            #expect(value("process_cpu_seconds_total") != nil)
            let start = try #require(value("process_start_time_seconds"))
            #expect(start > 1_600_000_000 && start <= Date().timeIntervalSince1970 + 1)
        }
    }

    @Test("/proc/self/stat: the fields after the command, whose name may hold spaces and parentheses; a short line is nothing")
    func statParsing() {
        let line = "4242 (verify ) server) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 9 0 123456 987654321 4321 18446744073709551615"
        let stat = ProcessMetrics.stat(line)
        #expect(stat?.userTicks == 250 && stat?.systemTicks == 50)
        #expect(stat?.startTicks == 123456 && stat?.virtualBytes == 987654321 && stat?.residentPages == 4321)
        #expect(ProcessMetrics.stat("4242 (short) S 1 2 3") == nil)
        #expect(ProcessMetrics.stat("no parenthesis") == nil)
    }

    @Test("every metric the server or the revocation fetcher records has a help text, and every help text a metric")
    func helpTable() throws {
        let recorded = try Self.recordedNames()
        let documented = Set(ServerMetrics.help.keys)
        #expect(recorded.count >= 15)
        #expect(recorded.subtracting(documented).isEmpty, "no help text: \(recorded.subtracting(documented).sorted())")
        #expect(documented.subtracting(recorded).isEmpty, "help text for no metric: \(documented.subtracting(recorded).sorted())")
        for (name, help) in ServerMetrics.help {
            #expect(!help.isEmpty && !help.contains("\n") && !help.contains("\\"), "\(name)")
        }
    }

    @Test("HTTP requests by route, method and status; unknown paths and methods share one label value each")
    func httpRequests() async throws {
        try await ServerFixture.withServer { server in
            _ = try await server.client.get("/healthz")
            _ = try await server.client.get("/healthz/")
            _ = try await server.client.send(method: .HEAD, path: "/healthz", body: nil)
            _ = try await server.client.get("/no/such/path-\(UUID().uuidString)")
            _ = try await server.client.get("/another-\(UUID().uuidString)?x=1")
            _ = try await server.client.send(method: .PUT, path: "/healthz", body: [])
            _ = try await server.client.send(method: .RAW(value: "BREW"), path: "/healthz", body: nil)
            _ = try await server.client.post("/v1/verify", json: "garbage")
            let text = try await server.client.get("/metrics").text
            for expected in [
                // The route the router matched: /healthz/ is /healthz.
                #"verify_server_http_requests_total{route="/healthz",method="GET",status="200"} 2"#,
                #"verify_server_http_requests_total{route="/healthz",method="HEAD",status="200"} 1"#,
                #"verify_server_http_requests_total{route="unmatched",method="GET",status="404"} 2"#,
                #"verify_server_http_requests_total{route="/healthz",method="PUT",status="405"} 1"#,
                #"verify_server_http_requests_total{route="/v1/verify",method="POST",status="400"} 1"#,
                #"verify_server_http_request_duration_seconds_count{route="/healthz",method="GET",status="200"} 2"#,
                "# TYPE verify_server_http_request_duration_seconds histogram",
            ] {
                #expect(text.contains(expected), "missing: \(expected)")
            }
            #expect(!text.contains("BREW"), "a client's method became a label value")
            #expect(!text.contains("/no/such") && !text.contains("/another-"), "a client's path became a label value")
        }
    }

    @Test("a replayed or expired verify call is counted under its request's format; an unknown request under unknown")
    func refusedFormat() async throws {
        let clock = TestClock()
        try await ServerFixture.withServer(clock: clock) { server in
            let request = AppleSample.request(now: clock.now)
            try await server.store.insert(request)
            #expect(try await server.client.post("/v1/verify", json: AppleSample.verifyBody(request.id)).status == 200)
            #expect(try await server.client.post("/v1/verify", json: AppleSample.verifyBody(request.id)).status == 409)
            let late = AppleSample.request(now: clock.now, ttl: 10)
            try await server.store.insert(late)
            clock.advance(by: 60)
            #expect(try await server.client.post("/v1/verify", json: AppleSample.verifyBody(late.id)).status == 410)
            #expect(try await server.client.post("/v1/verify", json: AppleSample.verifyBody(StoredRequest.newID())).status == 404)
            let text = try await server.client.get("/metrics").text
            for expected in [
                #"verify_server_verifications_total{format="apple-app",outcome="replayed",code="nonce.replayed"} 1"#,
                #"verify_server_verifications_total{format="apple-app",outcome="expired",code="nonce.expired"} 1"#,
                #"verify_server_verifications_total{format="unknown",outcome="unknown",code="nonce.unknown"} 1"#,
            ] {
                #expect(text.contains(expected), "missing: \(expected)")
            }
            #expect(!text.contains(#"format="unknown",outcome="replayed""#))
        }
    }

    @Test("help lines are added once, before TYPE, and an exposition that has them is left as it is")
    func addingHelp() {
        let plain = "# TYPE verify_server_trust_anchors gauge\nverify_server_trust_anchors 1\n"
        let once = String(decoding: ServerMetrics.addingHelp(to: Array(plain.utf8)), as: UTF8.self)
        #expect(once == "# HELP verify_server_trust_anchors Trust anchors in use.\n" + plain)
        #expect(String(decoding: ServerMetrics.addingHelp(to: Array(once.utf8)), as: UTF8.self) == once)
        #expect(ServerMetrics.addingHelp(to: []).isEmpty)
    }
}
