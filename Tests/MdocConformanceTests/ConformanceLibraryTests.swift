import CryptoCore
import Foundation
import MdocConformance
import MdocModel
import MdocTesting
import Testing
import Verifier

/// `MdocConformance` from a test suite, as a relying party uses it (the DocC article's example is `flowsPassInProcess`).
@Suite("MdocConformance library")
struct ConformanceLibraryTests {
    /// A relying party's environment: its own verifier options and keys; the target adds the corpus's IACA.
    static func environment() throws -> FlowEnvironment {
        FlowEnvironment(configuration: VerifierConfiguration(trustStore: TrustStore(anchors: [])),
                        recipientKeys: [try PrivateKey.generate(.p256)], merchantID: "merchant.com.example", teamID: "ABCDE12345",
                        readerIdentity: try TestReaderPKI.shared().identity)
    }

    @Test("the relying party's flows in-process: nothing wrongly accepted or rejected, codes as documented")
    func flowsPassInProcess() throws {
        let corpus = ConformanceCorpus(time: ConformanceCorpus.defaultTime, seed: ConformanceCorpus.defaultSeed)
        let target = try RequestFlowTarget(environment: try Self.environment(), corpus: corpus)
        let summary = ConformanceRun(target: target, cases: corpus.cases.map(ConformanceRunCase.init), expectCodes: true, jobs: 2).run()

        #expect(summary.count(.wronglyAccepted) == 0, "\(summary.text())")
        #expect(summary.count(.passed) > 100)
        #expect(!summary.failed(strict: true), "\(summary.text())")
        // What a flow cannot do is counted apart, with the reason: no bare DeviceResponse flow, no consumed-request
        // memory, no case's own revocation lists.
        let skipped = summary.results.filter { $0.outcome == .notApplicable }
        #expect(skipped.contains { $0.testCase.format == "device-response" && $0.reason.contains("no request flow") })
        #expect(skipped.contains { $0.testCase.requires.contains("state") })
        #expect(skipped.contains { $0.testCase.requires.contains("revocation") })
        // The default profile only warns where Annex B's mandatory key usage is missing: that case is not for it.
        #expect(skipped.contains { $0.testCase.requires.contains("certificate-profile") })
        #expect(summary.text().contains("NOT APPLICABLE:"))
        // A format fetched by reference runs too: the wallet fetches the flow's signed request object and answers it.
        let redirect = summary.results.filter { $0.testCase.format == "openid4vp-redirect" }
        let runnable = redirect.filter { Set($0.testCase.requires).isDisjoint(with: ["state", "revocation", "certificate-profile"]) }
        #expect(redirect.filter { $0.outcome == .passed }.count == runnable.count)
        #expect(redirect.contains { $0.outcome == .passed && $0.testCase.id == "openid4vp-redirect/positive/mdl" })
    }

    @Test("under the strict profile the certificate-profile cases apply, and a missing key usage is refused")
    func strictProfileRunsCertificateProfileCases() throws {
        let corpus = ConformanceCorpus(time: ConformanceCorpus.defaultTime, seed: ConformanceCorpus.defaultSeed)
        let cases = corpus.cases.filter { $0.requires.contains(.certificateProfile) }.map(ConformanceRunCase.init)
        var environment = try Self.environment()
        environment.configuration.profile = .strict
        let summary = ConformanceRun(target: try RequestFlowTarget(environment: environment, corpus: corpus), cases: cases,
                                     expectCodes: true).run()
        let flows = summary.results.filter { $0.testCase.format != "device-response" }
        #expect(flows.count == 4)
        #expect(flows.allSatisfy { $0.outcome == .passed && $0.gotCodes == ["issuer.certificate_profile"] }, "\(summary.text())")
    }

    @Test("a verifier that accepts everything fails the run on its wrong acceptances, each named")
    func acceptAllFails() {
        let corpus = ConformanceCorpus(time: ConformanceCorpus.defaultTime, seed: ConformanceCorpus.defaultSeed, formats: [.deviceResponse])
        let cases = corpus.cases.map(ConformanceRunCase.init)
        let summary = ConformanceRun(target: AcceptAll(), cases: cases, without: [.revocation]).run()
        let critical = summary.results.filter { $0.outcome == .wronglyAccepted }
        #expect(!critical.isEmpty)
        #expect(critical.allSatisfy { $0.testCase.verdict == .reject })
        #expect(summary.failed(strict: false))
        #expect(summary.text().contains("WRONGLY ACCEPTED (critical):"))
        #expect(summary.results.filter { $0.testCase.requires.contains("revocation") }.allSatisfy { $0.outcome == .notApplicable })
    }

    @Test("a command's not-applicable answer is counted apart with its reason (escaped), never as a pass or a failure")
    func commandNotApplicable() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-na-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let testCase = ConformanceRunCase(id: "device-response/fault/x", format: "device-response", kind: "fault", clause: "9.1.2.4",
                                          summary: "a fault", verdict: .reject, code: nil, codes: [], requires: [], folder: folder,
                                          libraryCase: nil)
        let answer = #"{"verdict": "not-applicable", "reason": "no EdDSA\u001b[31m"}"#
        let target = CommandTarget(command: ["/bin/sh", "-c", "printf '%s\\n' '\(answer)'"], timeout: 10)
        let summary = ConformanceRun(target: target, cases: [testCase]).run()
        let result = try #require(summary.results.first)
        #expect(result.outcome == .notApplicable)
        #expect(result.reason.contains("no EdDSA"))
        #expect(!summary.failed(strict: true))
        #expect(!summary.text().contains("\u{1b}"))

        let unknown = ConformanceRun(target: CommandTarget(command: ["/bin/sh", "-c", #"echo '{"verdict": "maybe"}'"#]), cases: [testCase]).run()
        #expect(unknown.results.first?.outcome == .error)
    }

    @Test("a profile or manifest that cannot be read is a ConformanceError that names the file")
    func unreadableInputs() {
        let corpus = ConformanceCorpus(formats: [.annexC])
        #expect(throws: ConformanceError.self) { try HTTPProfileTarget(profilePath: "/nonexistent/profile.json", corpus: corpus) }
        do {
            _ = try ConformanceRunCase.manifest(in: URL(fileURLWithPath: "/nonexistent"))
            Issue.record("a missing manifest was read")
        } catch {
            #expect(error.description.contains("/nonexistent/manifest.json"))
        }
    }
}

/// Accepts every response: the verifier a conformance run must fail.
private struct AcceptAll: ConformanceTarget {
    var name: String { "accept-all" }
    func observe(_ testCase: ConformanceRunCase) -> ConformanceObservation { .verdict(.accept, codes: [], detail: "") }
}
