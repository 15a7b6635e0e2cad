import Foundation
import Testing
import TestSupport
import VerifyServer

/// `vicals: [{file, root}]`: verified at start, their IACAs trusted, their state on /readyz.
@Suite("verify-server VICALs")
struct VICALConfigurationTests {
    static let vical = VectorFiles.url("TestVectors/trust/aamva-vical.cbor").path
    static let root = VectorFiles.url("TestVectors/trust/aamva-dts-root-from-vical-x5chain.pem").path

    @Test("a configured VICAL adds its IACAs and is reported on /readyz (verified as of the pinned test time)")
    func loaded() async throws {
        var configuration = AppleSample.configuration(verificationTime: VectorFiles.date("2025-08-05T21:00:00Z"))
        configuration.vicals = [VICALSource(file: Self.vical, root: Self.root)]
        try await ServerFixture.withServer(configuration) { server in
            let body = try jsonObject(try await server.client.get("/readyz"))
            #expect(body["trustAnchors"] as? Int == 14)
            let vicals = try #require(body["vicals"] as? [[String: Any]])
            #expect(vicals.first?["provider"] as? String == "AAMVA")
            #expect(vicals.first?["vicalIssueID"] as? Int == 89782)
            #expect(vicals.first?["stale"] as? Bool == false)
        }
    }

    @Test("a VICAL pinned to another root, or unreadable, refuses the start with one message each")
    func refused() throws {
        var configuration = AppleSample.configuration(verificationTime: VectorFiles.date("2025-08-05T21:00:00Z"))
        configuration.vicals = [
            VICALSource(file: Self.vical, root: VectorFiles.url("TestVectors/trust/austroads-preproduction-dts-root.pem").path),
            VICALSource(file: "/nonexistent/vical.cbor", root: Self.root),
        ]
        #expect(throws: ConfigurationProblems.self) { try VerifierRuntime.load(configuration) }
        do {
            _ = try VerifierRuntime.load(configuration)
        } catch {
            #expect(error.problems.count == 2)
            #expect(error.problems.contains { $0.contains("vical.signer_untrusted") })
            #expect(error.problems.contains { $0.contains("cannot read the file") })
        }
    }
}
