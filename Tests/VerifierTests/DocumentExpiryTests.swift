import Foundation
import Mdoc
import MdocModel
import MdocTesting
import Testing
import TestSupport
import Verifier

/// `element.document_expired`: a returned expiry_date that has passed is a warning line (the document verifies; the
/// relying party is told), a current one passes, and a response without one says so.
@Suite("element.document_expired")
struct DocumentExpiryTests {
    static func line(_ report: VerificationReport) -> CheckResult? { report.checks.first { $0.id == .elementDocumentExpired } }

    @Test("Apple's sample at 2022-06-01: its expiry_date 2022-01-30 has passed, so a warning, and the sample still verifies")
    func appleSampleExpired() throws {
        let report = try AppleFixtures.verifier().verify(encryptedData: AppleSampleVector.envelope, session: AppleFixtures.session,
                                                         at: VectorFiles.date("2022-06-01T00:00:00Z"))
        #expect(report.verified, "\(report.errors)")
        let line = try #require(Self.line(report))
        #expect(line.status == .warn)
        #expect(line.detail.contains("expiry_date 2022-01-30 is before the verification time 2022-06-01T00:00:00Z"), "\(line.detail)")
    }

    @Test("a kit document whose expiry_date lies ahead passes; one without expiry_date is skipped")
    func currentAndAbsent() throws {
        let time = VectorFiles.date("2026-06-01T12:00:00Z")
        let pki = try TestPKI(seed: 7, at: time)
        let transcript = SessionTranscript(built: .array([.null, .null, .text("DocumentExpiryTests")]))
        let verifier = DeviceResponseVerifier(configuration: VerifierConfiguration(trustStore: pki.trustStore, revocation: .off))
        let full = try MdocSimulator(pki: pki).simulate(.deviceResponse(transcript), options: SimulationOptions(time: time))
        let current = try #require(Self.line(verifier.verify(deviceResponse: full.bytes, transcript: transcript, at: time)))
        #expect(current.status == .pass && current.detail.contains("2032-04-12"), "\(current.detail)")

        var options = SimulationOptions(time: time)
        options.elements = [ElementID(NameSpace.mDL, "family_name")]
        let partial = try MdocSimulator(pki: pki).simulate(.deviceResponse(transcript), options: options)
        let absent = try #require(Self.line(verifier.verify(deviceResponse: partial.bytes, transcript: transcript, at: time)))
        #expect(absent.status == .skip)

        // Years later the same document's expiry_date has passed: a warning, not a failure.
        let later = VectorFiles.date("2033-01-01T00:00:00Z")
        let laterPKI = try TestPKI(seed: 7, at: later)
        let old = try MdocSimulator(pki: laterPKI).simulate(.deviceResponse(transcript), options: SimulationOptions(time: later))
        let laterVerifier = DeviceResponseVerifier(configuration: VerifierConfiguration(trustStore: laterPKI.trustStore, revocation: .off))
        let report = laterVerifier.verify(deviceResponse: old.bytes, transcript: transcript, at: later)
        #expect(report.verified, "\(report.errors)")
        #expect(Self.line(report)?.status == .warn)
    }
}
