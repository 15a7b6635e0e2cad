import CryptoCore
import Mdoc
import MdocModel
import MdocTesting
import Testing
import Verifier

/// The document signer must be issued by a certificate of the trust store; x5chain cannot add a CA to the path.
@Suite("Issuer chain: no intermediate from x5chain")
struct IssuerChainTests {
    static let transcript = SessionTranscript(built: .array([.null, .null, .array([.text("IssuerChainTests")])]))

    @Test("a CA between a trusted IACA without pathLenConstraint and the document signer: issuer.chain_untrusted naming the CA")
    func intermediateUnderRootWithoutPathLength() throws {
        let pki = try TestPKI(seed: 7, at: Fixtures.time, iacaPathLength: nil)
        let response = try MdocSimulator(pki: pki).simulate(
            .deviceResponse(Self.transcript), options: SimulationOptions(time: Fixtures.time, faults: [.intermediateCA]))
        let report = DeviceResponseVerifier(configuration: VerifierConfiguration(trustStore: pki.trustStore)).verify(
            deviceResponse: response.bytes, transcript: Self.transcript, at: Fixtures.time)
        #expect(report.errors.map(\.code) == [.issuerChainUntrusted])
        #expect(report.errors.first?.message.contains("MdocTesting Intermediate CA") == true, "\(report.errors)")
        #expect(report.documents.isEmpty)
    }

    @Test("the same IACA issuing the document signer directly verifies (with the path-length warning)")
    func directlyIssued() throws {
        let pki = try TestPKI(seed: 7, at: Fixtures.time, iacaPathLength: nil)
        let response = try MdocSimulator(pki: pki).simulate(.deviceResponse(Self.transcript), options: SimulationOptions(time: Fixtures.time))
        let report = DeviceResponseVerifier(configuration: VerifierConfiguration(trustStore: pki.trustStore)).verify(
            deviceResponse: response.bytes, transcript: Self.transcript, at: Fixtures.time)
        #expect(report.verified, "\(report.errors)")
        #expect(report.checks.contains { $0.id == .issuerCertificateProfile && $0.status == .warn && $0.detail.contains("iaca.path_length") })
    }
}
