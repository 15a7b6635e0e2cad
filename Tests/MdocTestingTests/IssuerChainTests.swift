import CBOR
import CryptoCore
import Foundation
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

    @Test("an IACA that expired before the verification time fails the chain, though its Document Signer is still valid")
    func expiredAnchor() throws {
        let day: TimeInterval = 86_400
        let pki = try TestPKI(seed: 8, at: Fixtures.time,
                              iacaValidity: DateInterval(start: Fixtures.time - 900 * day, end: Fixtures.time - day))
        #expect(pki.documentSigner.notAfter > Fixtures.time && pki.iaca.notAfter < Fixtures.time)
        let response = try MdocSimulator(pki: pki).simulate(.deviceResponse(Self.transcript), options: SimulationOptions(time: Fixtures.time))
        let verifier = DeviceResponseVerifier(configuration: VerifierConfiguration(trustStore: pki.trustStore))
        let report = verifier.verify(deviceResponse: response.bytes, transcript: Self.transcript, at: Fixtures.time)
        #expect(report.errors.map(\.code) == [.issuerCertificateExpired], "\(report.errors)")
        // The same response a day and a half earlier, while the IACA was valid: verified.
        let earlier = verifier.verify(deviceResponse: response.bytes, transcript: Self.transcript, at: Fixtures.time - 1.5 * day)
        #expect(earlier.errors.map(\.code).allSatisfy { $0 != .issuerCertificateExpired }, "\(earlier.errors)")
    }

    /// A label and hash for issuerAuth, the Document Signer's curve, and the verdict.
    struct AlgorithmRow: Sendable, CustomTestStringConvertible {
        let label: Int64
        let digest: DigestAlgorithm
        let curve: Curve
        let expected: ErrorCode?
        var testDescription: String { "alg \(label) over \(digest.rawValue) by \(curve.rawValue)" }
    }

    @Test("issuerAuth's label must be the one ISO/IEC 18013-5 pairs with the key's curve, even over a valid signature",
          arguments: [
              AlgorithmRow(label: -35, digest: .sha384, curve: .p256, expected: .issuerAlgorithmUnsupported),
              AlgorithmRow(label: -7, digest: .sha256, curve: .p384, expected: .issuerAlgorithmUnsupported),
              AlgorithmRow(label: -36, digest: .sha512, curve: .brainpoolP384r1, expected: .issuerAlgorithmUnsupported),
              AlgorithmRow(label: -35, digest: .sha384, curve: .brainpoolP320r1, expected: nil),
              AlgorithmRow(label: -7, digest: .sha256, curve: .brainpoolP256r1, expected: nil),
          ])
    func algorithmPairing(_ row: AlgorithmRow) throws {
        let pki = try TestPKI(seed: 9, curve: row.curve, at: Fixtures.time)
        var options = SimulationOptions(time: Fixtures.time)
        options.issuerAlgorithm = (label: row.label, digest: row.digest)
        let response = try MdocSimulator(pki: pki).simulate(.deviceResponse(Self.transcript), options: options)
        let report = DeviceResponseVerifier(configuration: VerifierConfiguration(trustStore: pki.trustStore)).verify(
            deviceResponse: response.bytes, transcript: Self.transcript, at: Fixtures.time)
        #expect(report.errors.map(\.code) == (row.expected.map { [$0] } ?? []), "\(report.errors)")
    }

    @Test("unsupported-cose-algorithm is a valid PS256 signature by an RSA Document Signer the IACA issued, refused for its algorithm")
    func validPS256IsRefused() throws {
        let pki = try TestPKI(seed: 10, at: Fixtures.time)
        let response = try MdocSimulator(pki: pki).simulate(
            .deviceResponse(Self.transcript), options: SimulationOptions(time: Fixtures.time, faults: [.unsupportedCOSEAlgorithm]))
        let issuerAuth = try #require(CBORDecoder.decode(response.bytes)["documents"]?.array?.first?["issuerSigned"]?["issuerAuth"]?.array)
        let protected = Array(try #require(issuerAuth[0].bytes))
        let signer = try Certificate(derEncoded: Array(try #require(issuerAuth[1][intKey: 33]?.bytes)))
        let payload = Array(try #require(issuerAuth[2].bytes))
        let signature = Array(try #require(issuerAuth[3].bytes))
        #expect(try CBORDecoder.decode(protected)[intKey: 1]?.int == -37)
        #expect(RSASignature.modulusBits(of: signer) == 2048)
        #expect(signer.issuer == pki.iaca.subject)
        let signed = CBOREncoder.encode(.array([.text("Signature1"), .bytes(protected), .bytes([]), .bytes(payload)]))
        #expect(RSASignature.isValid(signature, for: signed, certificate: signer, digest: .sha256, padding: .pss))
        let report = DeviceResponseVerifier(configuration: VerifierConfiguration(trustStore: pki.trustStore)).verify(
            deviceResponse: response.bytes, transcript: Self.transcript, at: Fixtures.time)
        #expect(report.errors.map(\.code) == [.issuerAlgorithmUnsupported], "\(report.errors)")
    }
}
