import Foundation
import Logging
import Mdoc
import MdocModel
import Synchronization
import Testing
import TestSupport
import VerifyServer

/// Lines a `JSONLogHandler` wrote.
final class JSONLines: Sendable {
    private let lines = Mutex<[String]>([])

    var all: [String] { lines.withLock { $0 } }

    func logger(label: String = "verify-server", now: @escaping @Sendable () -> Date = { Date() }) -> Logger {
        var logger = Logger(label: label) { label in
            JSONLogHandler(label: label, now: now) { [self] bytes in self.lines.withLock { $0.append(String(decoding: bytes, as: UTF8.self)) } }
        }
        logger.logLevel = .trace
        return logger
    }

    /// Each line parsed; fails the test for a line that is not one JSON object ending in a newline.
    func objects() throws -> [[String: Any]] {
        try all.map { line in
            #expect(line.hasSuffix("\n") && line.dropLast().allSatisfy { $0 != "\n" }, "not one line: \(line)")
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any], "not an object: \(line)")
        }
    }
}

@Suite("verify-server JSON log lines (logFormat: json)")
struct JSONLogTests {
    @Test("one object per line: time, level, label, message and metadata (handler's, provider's, then the message's)")
    func lineShape() throws {
        let lines = JSONLines()
        let time = try #require(RFC3339.parseDateTime("2026-11-25T10:00:00.25Z"))
        var logger = lines.logger(label: "test-label", now: { time })
        logger[metadataKey: "instance"] = "a"
        logger[metadataKey: "shadowed"] = "handler"
        logger.warning("hello \"world\"", metadata: [
            "shadowed": "message", "count": "\(3)", "list": ["x", "y"], "nested": ["k": "v"],
        ])
        logger.trace("second")
        let objects = try lines.objects()
        #expect(objects.count == 2)
        let first = try #require(objects.first)
        #expect(Set(first.keys) == ["time", "level", "label", "message", "metadata"])
        #expect(first["time"] as? String == "2026-11-25T10:00:00.25Z")
        #expect(first["level"] as? String == "warning")
        #expect(first["label"] as? String == "test-label")
        #expect(first["message"] as? String == "hello \"world\"")
        let metadata = try #require(first["metadata"] as? [String: Any])
        #expect(metadata["instance"] as? String == "a")
        #expect(metadata["shadowed"] as? String == "message")
        #expect(metadata["count"] as? String == "3")
        #expect(metadata["list"] as? [String] == ["x", "y"])
        #expect((metadata["nested"] as? [String: String]) == ["k": "v"])
        #expect((objects.last?["metadata"] as? [String: Any])?.count == 2)
    }

    @Test("controls, line breaks and bidirectional characters cannot break a line or reach the terminal raw")
    func hostileText() throws {
        let lines = JSONLines()
        let hostile = "a\nb\r{\"level\":\"fake\"}\u{1B}[31m\u{202E}evil\u{0}é😀"
        lines.logger().info("\(hostile)", metadata: ["k\n": "\(hostile)"])
        let line = try #require(lines.all.first)
        #expect(line.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F || $0 == 0x0A }, "not printable ASCII: \(line)")
        #expect(line.filter { $0 == "\n" }.count == 1)
        let object = try #require(try lines.objects().first)
        #expect(object["message"] as? String == hostile)
        #expect((object["metadata"] as? [String: String])?["k\n"] == hostile)
        #expect(object["level"] as? String == "info")
    }

    @Test("a verification logged as JSON: every line parses, request IDs are there, no nonce, element value or key")
    func serverLogsClean() async throws {
        let lines = JSONLines()
        let secrets: [String] = try await ServerFixture.withServer(logger: lines.logger()) { server in
            let created = try await server.client.post("/v1/requests", json: AppleSample.createBody)
            let nonce = try #require(try jsonObject(created)["nonce"] as? String)
            let request = AppleSample.request()
            try await server.store.insert(request)
            let verified = try await server.client.post("/v1/verify", json: AppleSample.verifyBody(request.id))
            #expect(verified.status == 200)
            let document = try #require((try jsonObject(verified)["documents"] as? [[String: Any]])?.first)
            let elements = try #require((document["elements"] as? [String: Any])?["org.iso.18013.5.1"] as? [String: Any])
            let familyName = try #require(elements["family_name"] as? String)
            #expect(try await server.client.post("/v1/verify", json: AppleSample.verifyBody(request.id)).status == 409)
            return [nonce, Base64URL.encode(AppleSampleVector.nonce), Hex.encode(AppleSampleVector.nonce), familyName, "PRIVATE KEY"]
        }
        let objects = try lines.objects()
        let verification = objects.first { $0["message"] as? String == "verification" }
        let metadata = try #require(verification?["metadata"] as? [String: String])
        #expect(metadata["outcome"] == "verified" && metadata["format"] == "apple-app" && metadata["code"] == "none")
        #expect(objects.contains { ($0["message"] as? String)?.contains("shutting down") == true })
        let text = lines.all.joined()
        for secret in secrets {
            #expect(!text.contains(secret), "the JSON log contains a secret value")
        }
    }

    @Test("the executable with VERIFY_SERVER_LOG_FORMAT=json writes only JSON lines to standard error")
    func executable() throws {
        let server = try ServerProcess.start(environment: ServerProcess.sampleEnvironment(["VERIFY_SERVER_LOG_FORMAT": "json"]))
        defer { server.stop() }
        let port = try server.port()
        let lines = server.errorLines
        #expect(lines.count >= 2, "\(lines)")
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["time"] is String && object?["level"] is String && object?["message"] is String, "\(line)")
        }
        #expect(lines.contains { $0.contains("\"message\":\"verify-server listening on http://127.0.0.1:\(port)\"") })
        #expect(lines.contains { $0.contains("TEST MODE") && $0.contains("\"level\":\"warning\"") })
    }

    @Test("logFormat accepts text and json only")
    func configurationKey() throws {
        let json = ConfigurationLoader.read(file: nil, environment: ["VERIFY_SERVER_LOG_FORMAT": "json"])
        #expect(json.0.logFormat == .json && json.1.isEmpty)
        #expect(ServerConfiguration().logFormat == .text)
        let bad = ConfigurationLoader.read(file: nil, environment: ["VERIFY_SERVER_LOG_FORMAT": "xml"])
        #expect(bad.1 == ["VERIFY_SERVER_LOG_FORMAT must be one of text, json"])
    }
}
