import CBOR
import CryptoCore
import KitCertificates
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import MdocTrust
import Testing
import Verifier

/// The revocation lines beyond the fault table: CRL currency and issuer, the three policies, a malformed `status`,
/// and identifier list tokens.
@Suite("Revocation checks")
struct RevocationCheckTests {
    static let transcript = SessionTranscript(built: .array([.null, .null, .text("RevocationCheckTests")]))
    static let day: TimeInterval = 86_400

    /// A simulated mDL verified with `crls` (and the kit's status list) under `policy`.
    static func verify(crls: (TestPKI, SimulatedResponse) throws -> [CertificateRevocationList], policy: RevocationPolicy = .hard,
                       configure: (inout SimulationOptions) -> Void = { _ in }) throws -> VerificationReport {
        let pki = try TestPKI(seed: 41, at: Fixtures.time)
        var options = SimulationOptions(time: Fixtures.time)
        configure(&options)
        let response = try MdocSimulator(pki: pki).simulate(.deviceResponse(Self.transcript), options: options)
        let fetched = response.revocation.tokens.mapValues { RevocationMaterial($0, origin: "test list") }
        let source = try StaticRevocationSource(crls: try crls(pki, response).map { RevocationMaterial($0, origin: "test CRL") },
                                                fetched: fetched)
        let configuration = VerifierConfiguration(trustStore: pki.trustStore, revocation: policy, revocationSource: source)
        return DeviceResponseVerifier(configuration: configuration).verify(deviceResponse: response.bytes, transcript: Self.transcript,
                                                                            at: Fixtures.time)
    }

    static func line(_ report: VerificationReport, _ id: CheckID) -> CheckResult? { report.checks.first { $0.id == id } }

    @Test("a stale CRL, one signed by another key, or none: unknown (hard: revocation.unknown; soft: a warning naming why)")
    func crlUnknown() throws {
        let stale = try Self.verify { pki, _ in
            [try CRLBuilder(thisUpdate: Fixtures.time - 10 * Self.day, nextUpdate: Fixtures.time - Self.day).sign(issuer: pki.iaca, issuerKey: pki.iacaKey)]
        }
        #expect(stale.errors.map(\.code) == [.revocationUnknown])
        #expect(Self.line(stale, .revocationCertificate)?.detail.contains("is stale") == true)

        let forged = try Self.verify { pki, _ in
            [try CRLBuilder(thisUpdate: Fixtures.time - Self.day, nextUpdate: Fixtures.time + Self.day)
                .sign(issuer: pki.iaca, issuerKey: try PrivateKey.generate(.p256))]
        }
        #expect(forged.errors.map(\.code) == [.revocationUnknown])
        #expect(Self.line(forged, .revocationCertificate)?.detail.contains("is not signed by") == true)

        let none = try Self.verify(crls: { _, _ in [] }, policy: .soft)
        #expect(none.verified)
        let warning = try #require(Self.line(none, .revocationCertificate))
        #expect(warning.status == .warn && warning.detail.hasPrefix("status unknown: no CRL from"))
    }

    @Test("a CRL that lists the document signer from after the verification time does not revoke it yet; the newest current CRL decides")
    func revokedLater() throws {
        let report = try Self.verify { pki, response in
            let older = try CRLBuilder(thisUpdate: Fixtures.time - 2 * Self.day, nextUpdate: Fixtures.time + Self.day,
                                       revoked: [(response.documentSigner.serialNumber, Fixtures.time - 2 * Self.day)])
                .sign(issuer: pki.iaca, issuerKey: pki.iacaKey)
            let newer = try CRLBuilder(thisUpdate: Fixtures.time - Self.day, nextUpdate: Fixtures.time + Self.day,
                                       revoked: [(response.documentSigner.serialNumber, Fixtures.time + Self.day)])
                .sign(issuer: pki.iaca, issuerKey: pki.iacaKey)
            return [older, newer]
        }
        #expect(report.verified, "\(report.errors)")
        #expect(Self.line(report, .revocationCertificate)?.status == .pass)
    }

    @Test("off skips both lines; soft without a status in the MSO warns; a malformed status is status.invalid under any policy but off")
    func policies() throws {
        let off = try Self.verify(crls: { _, _ in [] }, policy: .off)
        #expect(off.verified)
        #expect(Self.line(off, .revocationCertificate)?.status == .skip && Self.line(off, .revocationStatus)?.status == .skip)

        let noStatus = try Self.verify(crls: { _, _ in [] }, policy: .soft) { $0.statusList = nil }
        #expect(noStatus.verified)
        #expect(Self.line(noStatus, .revocationStatus)?.detail == "status unknown: the MSO carries no status reference")
        let hardNoStatus = try Self.verify(crls: { _, _ in [] }, policy: .hard) { $0.statusList = nil }
        #expect(Set(hardNoStatus.errors.map(\.code)) == [.revocationUnknown])

        let malformed = try CBORDecoder.decode(CBOREncoder.encode(.map([(.text("status_list"), .map([(.text("uri"), .text("https://x"))]))])))
        #expect(throws: VerificationError(.statusInvalid, "MSO status_list has no uint `idx`")) { try MSOStatus(malformed) }
        let unknown = try MSOStatus(try CBORDecoder.decode(CBOREncoder.encode(.map([(.text("future_list"), .map([]))]))))
        #expect(unknown.statusList == nil && unknown.identifierList == nil && unknown.unknownMechanisms == ["\"future_list\""] )
    }

    @Test("an identifier list token: a listed id has its status, an absent one is valid; the signature covers the bytes received")
    func identifierList() throws {
        let key = try PrivateKey.generate(.p256)
        let claims = CBOREncoder.encode(.map([
            (.int(2), .text("https://ids.example/1")),
            (.int(65530), .map([(.bytes([1, 2]), .map([(.text("status"), .unsigned(1))]))])),
        ]))
        let signed = CBOREncoder.encode(.tagged(18, try COSEBuilder.sign1(payload: claims, signedPayload: claims, key: key)))
        let token = try StatusToken(signed)
        guard case .identifierList(let statuses) = token.content else {
            Issue.record("not an identifier list")
            return
        }
        #expect(statuses == [[1, 2]: 1])
        #expect(token.isSigned(by: key.publicKey))
        var tampered = signed
        tampered[tampered.count - 40] ^= 0x01
        #expect((try? StatusToken(tampered)).map { !$0.isSigned(by: key.publicKey) } ?? true)
    }
}
