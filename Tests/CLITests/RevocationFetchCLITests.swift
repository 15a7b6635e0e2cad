import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import MdocTestingServer
import MdocTrust
import Testing
import TestSupport

/// `mdocverify verify … --fetch --fetch-crls` against the kit's loopback list server: every revocation fault gives
/// its code, and a list server that is down is unknown (soft: exit 0 with the warning; hard: revocation.unknown).
@Suite("mdocverify revocation: fetched lists and trust-folder CRLs")
struct RevocationFetchCLITests {
    static let time = Date(timeIntervalSince1970: 1_780_315_200)  // 2026-06-01T12:00:00Z
    static let transcript = SessionTranscript(built: .array([.null, .null, .text("RevocationFetchCLITests")]))

    /// Writes a simulated response naming `server`'s lists, its transcript and the IACA; publishes the lists.
    static func files(_ server: RevocationListServer, name: String, faults: [Fault], in folder: URL) throws -> [String] {
        let pki = try TestPKI(seed: 47, at: time)
        var options = SimulationOptions(time: time, faults: faults)
        options.statusList = .init(uri: server.url("/lists/\(name)"), index: 17)
        options.crlDistributionPoint = server.url("/crl/\(name)")
        let response = try MdocSimulator(pki: pki).simulate(.deviceResponse(transcript), options: options)
        server.publish(response.revocation, crlPath: "/crl/\(name)")
        let responseURL = folder.appendingPathComponent("\(name).cbor")
        let transcriptURL = folder.appendingPathComponent("transcript.cbor")
        let iacaURL = folder.appendingPathComponent("iaca.pem")
        try Data(response.bytes).write(to: responseURL)
        try Data(transcript.bytes).write(to: transcriptURL)
        try pki.iaca.pemEncoded.write(to: iacaURL, atomically: true, encoding: .utf8)
        return ["verify", "device-response", "--device-response", responseURL.path, "--session-transcript", transcriptURL.path,
                "--trust", iacaURL.path, "--at", RFC3339.format(time), "--fetch", "--fetch-crls", "--fetch-allow", "127.0.0.1"]
    }

    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mdocverify-fetch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("with --fetch --fetch-crls and --revocation hard, each revocation fault exits 1 with its code; a clean response exits 0")
    func faults() async throws {
        let server = try await RevocationListServer.start()
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let faults: [Fault?] = [nil, .documentSignerRevoked, .statusRevoked, .statusSuspended, .statusListExpired,
                                .statusListUntrusted, .statusListSubMismatch, .statusIndexOutOfRange]
        for fault in faults {
            let name = fault?.name ?? "clean"
            let arguments = try Self.files(server, name: name, faults: fault.map { [$0] } ?? [], in: folder)
            let run = try MdocVerifyCLI.run(arguments + ["--revocation", "hard", "--json"])
            if let code = fault?.expectedCode(format: .deviceResponse) {
                #expect(run.status == 1, "\(name): \(run.stdout)")
                #expect(run.stdout.contains(code.rawValue), "\(name): \(run.stdout)")
            } else {
                #expect(run.status == 0, "\(name): \(run.stdout) \(run.stderr)")
                #expect(run.stdout.contains(server.url("/lists/clean")), "\(run.stdout)")
            }
            #expect(server.requests("/lists/\(name)") == 1 && server.requests("/crl/\(name)") == 1, "\(name)")
        }
        await server.stop()
    }

    @Test("list server down: soft exits 0 and prints why the status is unknown; hard exits 1 with revocation.unknown")
    func serverDown() async throws {
        let server = try await RevocationListServer.start()
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = try Self.files(server, name: "down", faults: [], in: folder)
        await server.stop()
        let soft = try MdocVerifyCLI.run(arguments)
        #expect(soft.status == 0, "\(soft.stdout) \(soft.stderr)")
        #expect(soft.stdout.contains("fetching \(server.url("/lists/down")) failed"), "\(soft.stdout)")
        let hard = try MdocVerifyCLI.run(arguments + ["--revocation", "hard", "--json"])
        #expect(hard.status == 1)
        #expect(hard.stdout.contains("revocation.unknown"))
    }

    @Test("--fetch-crls without --fetch, or a --fetch-allow entry that is not a host or network, is a usage error (exit 2)")
    func fetchCRLsNeedsFetch() async throws {
        let server = try await RevocationListServer.start()
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = try Self.files(server, name: "usage", faults: [], in: folder).filter { $0 != "--fetch" }
        let run = try MdocVerifyCLI.run(arguments)
        #expect(run.status == 2)
        #expect(run.stderr.contains("--fetch-crls needs --fetch"))
        // An allow entry that is neither a host name nor an address or network is refused before any fetch, quoted.
        let allowing = try Self.files(server, name: "usage", faults: [], in: folder)
            .map { $0 == "127.0.0.1" ? "10.0.0.0/99" : $0 }
        let badAllow = try MdocVerifyCLI.run(allowing)
        #expect(badAllow.status == 2 && badAllow.stderr.contains("--fetch-allow \"10.0.0.0/99\" is neither a host name nor an address or CIDR network"),
                "\(badAllow.stderr)")
        #expect(server.requests("/lists/usage") + server.requests("/crl/usage") == 0)
        await server.stop()
    }

    @Test("a CRL placed in the trust folder beside the IACA revokes the document signer (exit 1, issuer.certificate_revoked)")
    func crlInTrustFolder() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pki = try TestPKI(seed: 47, at: Self.time)
        var options = SimulationOptions(time: Self.time, faults: [.documentSignerRevoked])
        options.statusList = nil
        let response = try MdocSimulator(pki: pki).simulate(.deviceResponse(Self.transcript), options: options)
        let trust = folder.appendingPathComponent("trust")
        try FileManager.default.createDirectory(at: trust, withIntermediateDirectories: true)
        try pki.iaca.pemEncoded.write(to: trust.appendingPathComponent("iaca.pem"), atomically: true, encoding: .utf8)
        try response.revocation.crl.pemEncoded.write(to: trust.appendingPathComponent("iaca.crl"), atomically: true, encoding: .utf8)
        let responseURL = folder.appendingPathComponent("response.cbor")
        let transcriptURL = folder.appendingPathComponent("transcript.cbor")
        try Data(response.bytes).write(to: responseURL)
        try Data(Self.transcript.bytes).write(to: transcriptURL)
        let run = try MdocVerifyCLI.run(["verify", "device-response", "--device-response", responseURL.path, "--session-transcript",
                                         transcriptURL.path, "--trust", trust.path, "--at", RFC3339.format(Self.time), "--json"])
        #expect(run.status == 1, "\(run.stdout)")
        #expect(run.stdout.contains("issuer.certificate_revoked"))
        #expect(run.stdout.contains("iaca.crl"))
    }
}
