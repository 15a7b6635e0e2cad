import Foundation
import Testing
import TestSupport
import VerifyServer

/// A VICAL's age and staleness are one decision at one time: the server's trust time (the pinned verificationTime in
/// test mode), on /metrics and /readyz alike (issue 37: age 41 million seconds while stale was false).
@Suite("verify-server VICAL age and staleness agree")
struct VICALFreshnessTests {
    static let vical = VectorFiles.url("TestVectors/trust/aamva-vical.cbor").path
    static let root = VectorFiles.url("TestVectors/trust/aamva-dts-root-from-vical-x5chain.pem").path
    /// The list's date (2025-08-05T20:47:21Z); its nextUpdate is one day later.
    static let listDate = VectorFiles.date("2025-08-05T20:47:21Z")

    /// The value of the metric line that starts with `name`.
    static func value(_ metrics: String, _ name: String) throws -> Double {
        let line = try #require(metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }, "\(name) missing")
        return try #require(Double(line.split(separator: " ").last.map(String.init) ?? ""))
    }

    @Test("test mode, pinned before and after nextUpdate: age is from the pinned time, and stale says nextUpdate passed then")
    func ageAndStaleAtTheTrustTime() async throws {
        // The wall clock is today's; the pinned time decides both figures.
        for (pinned, stale) in [("2025-08-05T21:00:00Z", false), ("2025-08-07T00:00:00Z", true)] {
            let time = VectorFiles.date(pinned)
            var configuration = AppleSample.configuration(verificationTime: time)
            configuration.vicals = [VICALSource(file: Self.vical, root: Self.root)]
            try await ServerFixture.withServer(configuration, clock: TestClock(Date())) { server in
                let metrics = try await server.client.get("/metrics").text
                let age = try Self.value(metrics, #"verify_server_vical_age_seconds{provider="AAMVA"}"#)
                #expect(age == time.timeIntervalSince(Self.listDate), "\(pinned): \(age)")
                #expect(try Self.value(metrics, #"verify_server_vical_stale{provider="AAMVA"}"#) == (stale ? 1 : 0), "\(pinned)")
                let body = try jsonObject(try await server.client.get("/readyz"))
                let vicals = try #require(body["vicals"] as? [[String: Any]])
                #expect(vicals.first?["stale"] as? Bool == stale, "\(pinned)")
                // One decision: stale exactly when the age exceeds the list's validity (one day here).
                #expect((age > 86_400) == stale)
            }
        }
    }
}
