import CryptoCore
import Foundation
import Hummingbird
import LoopbackClient
import Logging
import Mdoc
import RevocationFetch
import ServiceLifecycle
import Synchronization
import Testing
@testable import VerifyServer

/// A webhook receiver on 127.0.0.1: records each POST and answers with the next status of `statuses` (the last one
/// repeats).
final class WebhookReceiver: Sendable {
    struct Received: Sendable {
        let headers: [String: String]
        let body: [UInt8]
    }

    let received: AsyncStream<Received>
    private let continuation: AsyncStream<Received>.Continuation
    private let statuses: Mutex<[Int]>

    init(statuses: [Int]) {
        (received, continuation) = AsyncStream.makeStream(of: Received.self)
        self.statuses = Mutex(statuses)
    }

    /// Runs the receiver around `body`, which gets its port.
    func run<T: Sendable>(_ body: @Sendable (Int) async throws -> T) async throws -> T {
        let router = Router()
        router.post("/hook") { [self] request, _ -> Response in
            let bytes = Array(try await request.body.collect(upTo: 1 << 20).readableBytesView)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            continuation.yield(Received(headers: headers, body: bytes))
            let status = statuses.withLock { statuses in statuses.count > 1 ? statuses.removeFirst() : statuses.first ?? 204 }
            return Response(status: HTTPResponse.Status(code: status))
        }
        let port = Mutex<Int?>(nil)
        let (started, startedContinuation) = AsyncStream.makeStream(of: Int.self)
        let application = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                                      onServerRunning: { channel in
                                          let bound = channel.localAddress?.port ?? 0
                                          port.withLock { $0 = bound }
                                          startedContinuation.yield(bound)
                                      }, logger: ServerFixture.quietLogger)
        let group = ServiceGroup(configuration: .init(services: [application], logger: ServerFixture.quietLogger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = started.makeAsyncIterator()
            let result: Result<T, any Error>
            if let bound = await iterator.next() {
                do { result = .success(try await body(bound)) } catch { result = .failure(error) }
            } else {
                result = .failure(WebhookTestError.notStarted)
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return try result.get()
        }
    }
}

enum WebhookTestError: Error { case notStarted }

@Suite("verify-server webhooks: Standard Webhooks signature, retry with backoff, thin body, destination policy")
struct WebhookTests {
    static let secretText = "whsec_" + Data(Array(0 ..< 32).map(UInt8.init)).base64EncodedString()

    /// Verifies a delivery's Standard Webhooks signature with the secret, as a receiver does.
    static func signatureValid(_ received: WebhookReceiver.Received) throws -> Bool {
        let id = try #require(received.headers["webhook-id"])
        let timestamp = try #require(received.headers["webhook-timestamp"])
        let signature = try #require(received.headers["webhook-signature"])
        let key = try #require(Data(base64Encoded: String(secretText.dropFirst("whsec_".count))))
        let expected = HMAC.authenticate(.sha256, key: [UInt8](key), data: Array("\(id).\(timestamp).".utf8) + received.body)
        return signature == "v1," + Data(expected).base64EncodedString()
    }

    /// A server whose webhook goes to the receiver's port, with an API key; retries are due at once unless `backoff`
    /// says otherwise.
    static func withServer<T: Sendable>(port: Int, includeReport: Bool = false, allow: [String] = ["127.0.0.1"],
                                        store: any RequestStore = InMemoryRequestStore(), clock: TestClock = TestClock(),
                                        backoff: [Duration] = Array(repeating: .zero, count: 5), wallet given: SimulatedWallet? = nil,
                                        secrets: [String] = [secretText],
                                        _ body: @Sendable (RunningServer, SimulatedWallet, TransactionAPITests.Key) async throws -> T)
        async throws -> T {
        let wallet = try given ?? SimulatedWallet(time: Date())
        defer { if given == nil { wallet.remove() } }
        let key = TransactionAPITests.key("shop")
        var configuration = wallet.configuration(testMode: true)
        configuration.apiKeys = [key.entry]
        configuration.webhookURL = "http://127.0.0.1:\(port)/hook"
        configuration.webhookSecrets = try secrets.map { try WebhookSecret(text: $0) }
        configuration.webhookIncludeReport = includeReport
        configuration.webhookAllow = allow
        return try await ServerFixture.withServer(configuration, store: store, clock: clock,
                                                  hooks: ServerHooks(webhookBackoff: backoff)) { server in
            try await body(server, wallet, key)
        }
    }

    /// Creates an annex-c transaction with `key` (its body with the JSON members `extra` added) and answers it as the
    /// wallet; returns its ID.
    static func answered(_ server: RunningServer, _ wallet: SimulatedWallet, _ key: TransactionAPITests.Key,
                         extra: String? = nil) async throws -> String {
        let created = if let extra {
            try await server.client.send(method: .POST, path: "/v1/transactions",
                                         body: Array(#"{"format":"annex-c","documents":\#(TransactionAPITests.documents),\#(extra)}"#.utf8),
                                         headers: key.bearer)
        } else {
            try await TransactionAPITests.create(server, key)
        }
        #expect(created.status == 201, "\(created.text)")
        let body = try jsonObject(created)
        let id = try #require(body["requestId"] as? String)
        let data = try #require(body["data"] as? [String: Any])
        let response = try wallet.annexCResponse(encryptionInfo: try #require(data["encryptionInfo"] as? String))
        let accepted = try await TransactionAPITests.answer(server, id, secret: try #require(body["clientSecret"] as? String),
                                                            body: TransactionAPITests.credential(annexC: response))
        #expect(try jsonObject(accepted)["status"] as? String == "accepted")
        return id
    }

    @Test("an answered transaction is posted, signed (v1 HMAC-SHA256 over id.timestamp.body), retried after a 500 with the same webhook-id; the body carries the status only")
    func deliveredAndRetried() async throws {
        let receiver = WebhookReceiver(statuses: [500, 204])
        try await receiver.run { port in
            try await Self.withServer(port: port) { server, wallet, key in
                let id = try await Self.answered(server, wallet, key)
                var deliveries = receiver.received.makeAsyncIterator()
                let first = try #require(await deliveries.next())
                let second = try #require(await deliveries.next())
                #expect(first.headers["webhook-id"] == "msg_\(id)")
                #expect(second.headers["webhook-id"] == first.headers["webhook-id"])
                #expect(try Self.signatureValid(first))
                #expect(try Self.signatureValid(second))
                #expect(first.headers["content-type"] == "application/json")
                let event = try #require(try JSONSerialization.jsonObject(with: Data(second.body)) as? [String: Any])
                #expect(event["type"] as? String == "transaction.verified")
                let data = try #require(event["data"] as? [String: Any])
                #expect(data["requestId"] as? String == id && data["status"] as? String == "verified")
                #expect(data["report"] == nil)
                #expect(!String(decoding: second.body, as: UTF8.self).contains("family_name"))
                // A tampered body fails the signature.
                var tampered = second.body
                tampered[tampered.count - 2] ^= 1
                #expect(try !Self.signatureValid(.init(headers: second.headers, body: tampered)))
            }
        }
    }

    @Test("webhookIncludeReport: the body carries the report with the elements")
    func includesReport() async throws {
        let receiver = WebhookReceiver(statuses: [200])
        try await receiver.run { port in
            try await Self.withServer(port: port, includeReport: true) { server, wallet, key in
                _ = try await Self.answered(server, wallet, key)
                var deliveries = receiver.received.makeAsyncIterator()
                let delivery = try #require(await deliveries.next())
                let event = try #require(try JSONSerialization.jsonObject(with: Data(delivery.body)) as? [String: Any])
                let report = try #require((event["data"] as? [String: Any])?["report"] as? [String: Any])
                #expect(report["verified"] as? Bool == true)
                #expect(String(decoding: delivery.body, as: UTF8.self).contains("family_name"))
            }
        }
    }

    @Test("a loopback URL not in webhookAllow is refused before connecting; a 410 is not retried; backoff is bounded")
    func destinationPolicy() async throws {
        let receiver = WebhookReceiver(statuses: [410])
        try await receiver.run { port in
            let secret = try WebhookSecret(text: Self.secretText)
            let event = WebhookEvent(id: "msg_x", requestId: "x", body: #"{"type":"transaction.verified"}"#, createdAt: Date())
            let refused = WebhookSender(url: "http://127.0.0.1:\(port)/hook", secrets: { [secret] }, includeReport: false, allow: [],
                                        store: InMemoryRequestStore(), logger: ServerFixture.quietLogger)
            guard case .refused = await refused.post(event) else {
                Issue.record("a loopback destination without an allow entry was not refused")
                return
            }
            let allowed = WebhookSender(url: "http://127.0.0.1:\(port)/hook", secrets: { [secret] }, includeReport: false,
                                        allow: [try #require(FetchDestination("127.0.0.0/8"))], store: InMemoryRequestStore(),
                                        logger: ServerFixture.quietLogger)
            #expect(await allowed.post(event) == .gone)
            #expect(WebhookSender.defaultBackoff.count == 5)
        }
    }

    @Test("configuration: the secret's form, https only outside test mode, URL and secret together, allow entries")
    func configuration() throws {
        #expect(throws: ConfigurationProblems.self) { try WebhookSecret(text: "not-a-secret") }
        #expect(throws: ConfigurationProblems.self) { try WebhookSecret(text: "whsec_" + Data(repeating: 1, count: 8).base64EncodedString()) }
        #expect(String(describing: try WebhookSecret(text: Self.secretText)) == "WebhookSecret(redacted)")
        var configuration = ServerConfiguration()
        configuration.webhookURL = "http://hooks.example/verify"
        configuration.webhookAllow = ["not a host/99"]
        let problems = configuration.problems.joined(separator: "\n")
        #expect(problems.contains("webhookURL must be an https URL"))
        #expect(problems.contains("webhookURL needs webhookSecretFile"))
        #expect(problems.contains("webhookAllow entry"))
        configuration.webhookURL = "https://hooks.example/verify"
        configuration.webhookSecrets = [try WebhookSecret(text: Self.secretText)]
        configuration.webhookAllow = []
        #expect(!configuration.problems.joined().contains("webhook"))
    }

    @Test("webhookSecretFile with two secrets (a rotation's overlap): every delivery carries one v1 signature per secret, each verifying; one to four lines only")
    func rotationOverlap() async throws {
        let next = "whsec_" + Data(Array(100 ..< 132).map(UInt8.init)).base64EncodedString()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webhook-secrets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func write(_ text: String) throws -> String {
            let file = folder.appendingPathComponent(UUID().uuidString).path
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            return file
        }
        #expect(try WebhookSecret.all(contentsOfFile: write("\(Self.secretText)\n\n\(next)\n")).count == 2)
        #expect(throws: ConfigurationProblems.self) { try WebhookSecret.all(contentsOfFile: write("\n")) }
        #expect(throws: ConfigurationProblems.self) { try WebhookSecret.all(contentsOfFile: write(Array(repeating: next, count: 5).joined(separator: "\n"))) }
        #expect(throws: ConfigurationProblems.self) { try WebhookSecret.all(contentsOfFile: write("\(next)\nwhsec_short")) }
        let receiver = WebhookReceiver(statuses: [204])
        try await receiver.run { port in
            try await Self.withServer(port: port, secrets: [Self.secretText, next]) { server, wallet, key in
                _ = try await Self.answered(server, wallet, key)
                var deliveries = receiver.received.makeAsyncIterator()
                let delivery = try #require(await deliveries.next())
                let signatures = try #require(delivery.headers["webhook-signature"]).split(separator: " ").map(String.init)
                #expect(signatures.count == 2)
                let id = try #require(delivery.headers["webhook-id"]), timestamp = try #require(delivery.headers["webhook-timestamp"])
                for (secret, signature) in zip([Self.secretText, next], signatures) {
                    let key = try #require(Data(base64Encoded: String(secret.dropFirst("whsec_".count))))
                    let expected = HMAC.authenticate(.sha256, key: [UInt8](key), data: Array("\(id).\(timestamp).".utf8) + delivery.body)
                    #expect(signature == "v1," + Data(expected).base64EncodedString())
                }
            }
        }
    }

    @Test("an https receiver on a private CA: refused by the system's store, delivered with outboundCAFile naming the CA; the setting is checked")
    func privateCA() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webhook-ca-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let receiver = try TLSReceiver(folder: folder)
        defer { receiver.stop() }
        let secret = try WebhookSecret(text: Self.secretText)
        let event = WebhookEvent(id: "msg_x", requestId: "x", body: #"{"type":"transaction.verified"}"#, createdAt: Date())
        func sender(caFile: String?) throws -> WebhookSender {
            WebhookSender(url: "https://127.0.0.1:\(receiver.port)/hook", secrets: { [secret] }, includeReport: false,
                          allow: [try #require(FetchDestination("127.0.0.1"))], caFile: caFile, store: InMemoryRequestStore(),
                          logger: ServerFixture.quietLogger)
        }
        let first = await try sender(caFile: nil).post(event)
        guard case .failed = first else {
            Issue.record("a receiver on a CA outside the system's store was reached")
            return
        }
        let second = await try sender(caFile: receiver.caFile).post(event)
        #expect(second == .delivered(204))
        var configuration = ServerConfiguration()
        configuration.outboundCAFile = receiver.caFile
        #expect(!configuration.problems.contains { $0.contains("outboundCAFile") })
        configuration.outboundCAFile = folder.appendingPathComponent("missing.pem").path
        #expect(configuration.problems.contains { $0.contains("outboundCAFile") })
    }
}

/// An https webhook receiver on 127.0.0.1 (Python's ssl module) with a certificate from a throwaway CA that `openssl`
/// makes; it answers 204 to every POST.
final class TLSReceiver: Sendable {
    let process: Process
    let port: Int
    let caFile: String

    init(folder: URL) throws {
        func run(_ arguments: [String]) throws {
            let openssl = Process()
            openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            openssl.arguments = arguments
            openssl.currentDirectoryURL = folder
            openssl.standardError = FileHandle.nullDevice
            openssl.standardOutput = FileHandle.nullDevice
            try openssl.run()
            openssl.waitUntilExit()
        }
        try run(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
                 "-subj", "/CN=webhook test CA", "-keyout", "ca.key", "-out", "ca.crt"])
        try run(["req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=127.0.0.1",
                 "-keyout", "server.key", "-out", "server.csr"])
        try "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
            .write(to: folder.appendingPathComponent("server.ext"), atomically: true, encoding: .utf8)
        try run(["x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-days", "2",
                 "-extfile", "server.ext", "-out", "server.crt"])
        caFile = folder.appendingPathComponent("ca.crt").path
        let script = """
            import http.server, ssl, sys
            class Hook(http.server.BaseHTTPRequestHandler):
                def do_POST(self):
                    self.rfile.read(int(self.headers.get("Content-Length", "0")))
                    self.send_response(204)
                    self.end_headers()
                def log_message(self, *args):
                    pass
            server = http.server.HTTPServer(("127.0.0.1", 0), Hook)
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain("server.crt", "server.key")
            server.socket = context.wrap_socket(server.socket, server_side=True)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        child.arguments = ["-c", script]
        child.currentDirectoryURL = folder
        let output = Pipe()
        child.standardOutput = output
        child.standardError = FileHandle.nullDevice
        try child.run()
        self.process = child
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            child.terminate()
            throw WebhookTestError.notStarted
        }
        self.port = port
    }

    /// Kills the receiver (not waited for: Foundation reaps it).
    func stop() {
        kill(process.processIdentifier, SIGKILL)
    }
}
