import CryptoCore
import Foundation
import LoopbackClient
import Mdoc
import MdocTesting
import MdocTrust
import Testing
import TestSupport
import Verifier
import VerifyServer

/// `lotes: [{file, root, serviceTypes, docTypes, allowRollback}]`: EU trusted lists verified at start and on reload,
/// their active, mapped services' certificates trusted for the mapped docTypes, listed on /readyz, with the sequence
/// number's rollback mark in the store beside the VICAL issue IDs.
@Suite("verify-server LoTEs (EU trusted lists)")
struct LoTEServerTests {
    static let day: TimeInterval = 86_400
    static let pid = "eu.europa.ec.eudi.pid.1"

    struct Lists {
        let wallet: SimulatedWallet
        let builder: LoTEBuilder

        init(time: Date) throws {
            wallet = try SimulatedWallet(time: time)
            builder = try LoTEBuilder(seed: 11, at: time)
            try PEMText.certificate(builder.root).write(to: root, atomically: true, encoding: .utf8)
        }

        var file: URL { wallet.folder.appendingPathComponent("mdl-providers.jwt") }
        var root: URL { wallet.folder.appendingPathComponent("lote-root.pem") }
        var storeFile: StoreLocation { .sqlite(path: wallet.folder.appendingPathComponent("store.sqlite").path) }

        /// Writes sequence `sequence` of an mDL providers list naming the wallet's IACA (with `status` since `since`).
        func write(_ sequence: UInt64, status: String? = nil, since: Date? = nil, nextUpdate: Date? = nil) throws {
            let time = wallet.time
            let bytes = try builder.build(services: [.init([wallet.pki.iaca], type: LoTEBuilder.mdlIssuance, status: status, statusStartingTime: since)],
                                          sequenceNumber: sequence, issued: time - 3600, nextUpdate: nextUpdate ?? time + 30 * LoTEServerTests.day,
                                          type: LoTEBuilder.mdlListType)
            try Data(bytes).write(to: file)
        }

        /// The wallet's settings with the production bundle plus the list, its services mapped to `docTypes`.
        func configuration(docTypes: [String] = [DocType.mDL], allowRollback: Bool = false) -> ServerConfiguration {
            var configuration = wallet.configuration()
            configuration.trustStorePaths = []
            configuration.lotes = [LoTESource(file: file.path, root: root.path, serviceTypes: [LoTEBuilder.mdlIssuance], docTypes: docTypes,
                                              allowRollback: allowRollback)]
            return configuration
        }

        func remove() { wallet.remove() }
    }

    static func created(_ response: LoopbackHTTPClient.Response) throws -> (id: String, body: [String: Any]) {
        #expect(response.status == 201, "\(response.text)")
        let body = try jsonObject(response)
        return (try #require(body["requestId"] as? String), body)
    }

    /// Creates an annex-c request, has the wallet answer it and posts the answer: the /v1/verify response.
    static func verify(_ server: RunningServer, _ wallet: SimulatedWallet) async throws -> LoopbackHTTPClient.Response {
        let (id, body) = try created(try await server.client.post("/v1/requests", json: SimulatedWallet.createBody("annex-c")))
        let data = try #require(body["data"] as? [String: Any])
        let response = try wallet.annexCResponse(encryptionInfo: try #require(data["encryptionInfo"] as? String))
        return try await server.client.post("/v1/verify", json: verifyJSON(id, response: response))
    }

    static func lotes(_ server: RunningServer) async throws -> [[String: Any]] {
        try #require(try jsonObject(try await server.client.get("/readyz"))["lotes"] as? [[String: Any]])
    }

    @Test("a list mapped to mDL anchors the wallet's IACA: the report names the LoTE; /readyz lists it with its sequence and anchors")
    func anchored() async throws {
        let lists = try Lists(time: Date())
        defer { lists.remove() }
        try lists.write(4)
        try await ServerFixture.withServer(lists.configuration(), store: InMemoryRequestStore()) { server in
            let verified = try await Self.verify(server, lists.wallet)
            #expect(verified.status == 200, "\(verified.text)")
            let document = try #require((try jsonObject(verified)["documents"] as? [[String: Any]])?.first)
            let anchor = try #require((document["issuer"] as? [String: Any])?["anchor"] as? [String: Any])
            #expect((anchor["source"] as? String)?.hasPrefix("LoTE MdocTesting Scheme Operator mDLProvidersListType sequence 4 of ") == true, "\(anchor)")
            #expect(anchor["listStale"] as? Bool == false)
            let lote = try #require(try await Self.lotes(server).first)
            #expect(lote["sequenceNumber"] as? Int == 4 && lote["anchors"] as? Int == 1 && lote["trusted"] as? Bool == true, "\(lote)")
            #expect(lote["loteType"] as? String == LoTEBuilder.mdlListType && lote["stale"] as? Bool == false)
            #expect(lote["docTypes"] as? [String] == [DocType.mDL] && lote["warning"] is NSNull)
            let metrics = try await server.client.get("/metrics").text
            let labels = #"{operator="MdocTesting Scheme Operator",type="\#(LoTEBuilder.mdlListType)"}"#
            for line in ["verify_server_lote_sequence_number\(labels) 4", "verify_server_lote_stale\(labels) 0",
                         "verify_server_lote_trusted\(labels) 1", "verify_server_lote_age_seconds\(labels) "] {
                #expect(metrics.contains(line), "\(line) in \(metrics)")
            }
        }
    }

    @Test("wrong scope (mapped to PID) or a withdrawn service: the wallet's mDL is issuer.chain_untrusted; /readyz says the list anchors nothing")
    func notAnchored() async throws {
        let lists = try Lists(time: Date())
        defer { lists.remove() }
        try lists.write(4)
        try await ServerFixture.withServer(lists.configuration(docTypes: [Self.pid]), store: InMemoryRequestStore()) { server in
            let refused = try await Self.verify(server, lists.wallet)
            #expect(refused.status == 422 && refused.text.contains("issuer.chain_untrusted"), "\(refused.text)")
            #expect(refused.text.contains("may anchor only \(Self.pid)"), "\(refused.text)")
        }
        try lists.write(5, status: LoTEBuilder.withdrawn, since: lists.wallet.time - Self.day)
        try await ServerFixture.withServer(lists.configuration(), store: InMemoryRequestStore()) { server in
            let refused = try await Self.verify(server, lists.wallet)
            #expect(refused.status == 422 && refused.text.contains("issuer.chain_untrusted"), "\(refused.text)")
            let lote = try #require(try await Self.lotes(server).first)
            #expect(lote["anchors"] as? Int == 0 && lote["trusted"] as? Bool == false)
            #expect((lote["warning"] as? String)?.contains("anchors nothing") == true)
        }
    }

    @Test("reload with a lower sequence keeps the trust and says lote.rollback; the mark is in the store; a restart with it is refused unless allowRollback")
    func rollback() async throws {
        let time = VectorFiles.date("2026-06-01T12:00:00Z")
        let lists = try Lists(time: time)
        defer { lists.remove() }
        try lists.write(5)
        var configuration = lists.configuration()
        configuration.store = lists.storeFile
        configuration.verificationTime = time
        configuration.testMode = true
        let key = "lote:MdocTesting Scheme Operator|\(LoTEBuilder.mdlListType)"
        try await ServerFixture.withServer(configuration) { server in
            try lists.write(4)
            #expect(!server.app.reloadTrust())
            let body = try jsonObject(try await server.client.get("/readyz"))
            #expect((body["trustReloadError"] as? String)?.contains("lote.rollback") == true, "\(body)")
            #expect(try await Self.lotes(server).first?["sequenceNumber"] as? Int == 5)
            try lists.write(6)
            #expect(server.app.reloadTrust())
            #expect(try await Self.lotes(server).first?["sequenceNumber"] as? Int == 6)
            #expect(try await server.storedMark(key, reaching: 6) == 6)
        }
        try lists.write(5)
        await #expect(throws: (any Error).self) {
            try await ServerFixture.withServer(configuration) { _ in }
        }
        var allowing = configuration
        allowing.lotes[0].allowRollback = true
        try await ServerFixture.withServer(allowing) { server in
            let sequence = try await Self.lotes(server).first?["sequenceNumber"] as? Int
            #expect(sequence == 5)
        }
    }

    @Test("a tampered list, another pinned root, an unreadable file, an endless one or the same file twice refuse the start, one message each")
    func refused() throws {
        let lists = try Lists(time: Date())
        defer { lists.remove() }
        try lists.write(4)
        var bytes = try Array(Data(contentsOf: lists.file))
        bytes[bytes.count - 4] = bytes[bytes.count - 4] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let tampered = lists.wallet.folder.appendingPathComponent("tampered.jwt")
        try Data(bytes).write(to: tampered)
        let other = lists.wallet.folder.appendingPathComponent("other-root.pem")
        try PEMText.certificate(try LoTEBuilder(seed: 12, at: lists.wallet.time).root).write(to: other, atomically: true, encoding: .utf8)
        var configuration = lists.configuration()
        let mapping = (serviceTypes: [LoTEBuilder.mdlIssuance], docTypes: [DocType.mDL])
        configuration.lotes = [
            LoTESource(file: tampered.path, root: lists.root.path, serviceTypes: mapping.serviceTypes, docTypes: mapping.docTypes),
            LoTESource(file: lists.file.path, root: other.path, serviceTypes: mapping.serviceTypes, docTypes: mapping.docTypes),
            LoTESource(file: "/nonexistent/lote.jwt", root: lists.root.path, serviceTypes: mapping.serviceTypes, docTypes: mapping.docTypes),
            LoTESource(file: "/nonexistent/lote.jwt", root: lists.root.path, serviceTypes: mapping.serviceTypes, docTypes: mapping.docTypes),
            // Its size says 0; it is read only up to the limit.
            LoTESource(file: "/dev/zero", root: lists.root.path, serviceTypes: mapping.serviceTypes, docTypes: mapping.docTypes),
        ]
        do {
            _ = try VerifierRuntime.load(configuration)
            Issue.record("the start was not refused")
        } catch {
            #expect(error.problems.contains { $0.contains("lote \(tampered.path): lote.signature_invalid") }, "\(error.problems)")
            #expect(error.problems.contains { $0.contains("lote \(lists.file.path): lote.signer_untrusted") }, "\(error.problems)")
            #expect(error.problems.contains { $0.contains("cannot read the file") })
            #expect(error.problems.contains { $0.contains("is listed twice") })
            #expect(error.problems.contains { $0.contains("lote /dev/zero: lote.too_large") }, "\(error.problems)")
        }
    }

    @Test("a stale list: reported by default; under vicalStalePolicy refuse its anchors are not trusted and the mDL is refused")
    func stale() async throws {
        let lists = try Lists(time: Date())
        defer { lists.remove() }
        try lists.write(4, nextUpdate: lists.wallet.time - 60)
        try await ServerFixture.withServer(lists.configuration(), store: InMemoryRequestStore()) { server in
            let lote = try #require(try await Self.lotes(server).first)
            #expect(lote["stale"] as? Bool == true && lote["trusted"] as? Bool == true)
            #expect((lote["warning"] as? String)?.contains("still trusted") == true)
            let verified = try await Self.verify(server, lists.wallet)
            #expect(verified.status == 200 && verified.text.contains("is stale"), "\(verified.text)")
        }
        var refusing = lists.configuration()
        refusing.vicalStalePolicy = .refuse
        try await ServerFixture.withServer(refusing, store: InMemoryRequestStore()) { server in
            #expect(try await Self.lotes(server).first?["trusted"] as? Bool == false)
            let refused = try await Self.verify(server, lists.wallet)
            #expect(refused.status == 422 && refused.text.contains("issuer.chain_untrusted"), "\(refused.text)")
        }
    }

    @Test("refuse: a list that passes its nextUpdate while in use is refused at use, before any reload (here every reload fails)")
    func staleAtUse() async throws {
        let lists = try Lists(time: Date())
        defer { lists.remove() }
        try lists.write(4, nextUpdate: lists.wallet.time + Self.day)
        var refusing = lists.configuration()
        refusing.vicalStalePolicy = .refuse
        let clock = TestClock(lists.wallet.time)
        try await ServerFixture.withServer(refusing, store: InMemoryRequestStore(), clock: clock) { server in
            let verified = try await Self.verify(server, lists.wallet)
            #expect(verified.status == 200, "\(verified.text)")
            // The pinned root goes: every reload fails now and keeps the runtime, which still holds the list's anchors.
            try FileManager.default.removeItem(at: lists.root)
            #expect(!server.app.reloadTrust())
            clock.advance(by: 2 * Self.day)
            let refused = try await Self.verify(server, lists.wallet)
            #expect(refused.status == 422 && refused.text.contains("vical.stale") && refused.text.contains("vicalStalePolicy refuse"),
                    "\(refused.text)")
            let lote = try #require(try await Self.lotes(server).first)
            #expect(lote["stale"] as? Bool == true && lote["trusted"] as? Bool == false, "\(lote)")
            #expect((lote["warning"] as? String)?.contains("not trusted (vicalStalePolicy refuse)") == true)
            let metrics = try await server.client.get("/metrics").text
            #expect(metrics.contains(#"verify_server_lote_stale{operator="MdocTesting Scheme Operator",type="\#(LoTEBuilder.mdlListType)"} 1"#))
            #expect(metrics.contains(#"verify_server_lote_trusted{operator="MdocTesting Scheme Operator",type="\#(LoTEBuilder.mdlListType)"} 0"#))
        }
    }

    @Test("configuration: lotes objects from a file (lists or comma text), FILE=ROOT=TYPE=DOCTYPE from the environment; unknown keys and missing mappings are named")
    func configuration() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lote-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("config.yaml")
        try """
        lotes:
          - file: /lists/pid.jwt
            root: /roots/ec.pem
            serviceTypes: [\(LoTEBuilder.pidIssuance)]
            docTypes: [\(Self.pid), org.example.1]
            allowRollback: true
        """.write(to: file, atomically: true, encoding: .utf8)
        let (read, problems) = ConfigurationLoader.read(file: file.path, environment: [:])
        #expect(!problems.contains { $0.contains("lotes") }, "\(problems)")
        #expect(read.lotes == [LoTESource(file: "/lists/pid.jwt", root: "/roots/ec.pem", serviceTypes: [LoTEBuilder.pidIssuance],
                                          docTypes: [Self.pid, "org.example.1"], allowRollback: true)])
        let (fromEnvironment, _) = ConfigurationLoader.read(file: nil, environment: [
            "VERIFY_SERVER_LOTES": "/lists/pid.jwt=/roots/ec.pem=\(LoTEBuilder.pidListType)=\(Self.pid)"])
        #expect(fromEnvironment.lotes.first?.serviceTypes == [LoTEBuilder.pidListType] && fromEnvironment.lotes.first?.docTypes == [Self.pid])
        try "lotes:\n  - file: /a.jwt\n    root: /r.pem\n    docTypes: [x]\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(ConfigurationLoader.read(file: file.path, environment: [:]).1.contains { $0.contains("serviceTypes") })
        try "lotes:\n  - file: /a.jwt\n    root: /r.pem\n    url: https://x\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(ConfigurationLoader.read(file: file.path, environment: [:]).1.contains { $0.contains("not both") })
        try "lotes:\n  - file: /a.jwt\n    root: /r.pem\n    sequence: 3\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(ConfigurationLoader.read(file: file.path, environment: [:]).1.contains { $0.contains("not \"sequence\"") })
    }
}
