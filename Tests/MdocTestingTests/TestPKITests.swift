import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import MdocTrust
import Testing
import Verifier

@Suite("MdocTesting: the test PKI (Annex B profile, reproducible keys, one shared build per seed)")
struct TestPKITests {
    @Test("a conformant PKI gives zero profile warnings under the default profile and verifies under strict",
          arguments: [Curve.p256, .p384, .p521, .ed25519])
    func conformant(_ curve: Curve) throws {
        for profile in CertificateProfile.allCases {
            let result = try SimulatedCase(curve: curve, profile: profile, time: Fixtures.time).run()
            #expect(result.failure == nil, "\(result.failure ?? "")")
            #expect(result.report.checks.filter { $0.status == .warn }.isEmpty, "\(ReportSummary.text(result.report))")
            #expect(result.report.checks.contains { $0.id == .issuerCertificateProfile && $0.status == .pass })
        }
    }

    @Test("IACA and Document Signer carry the Annex B extensions, names and validity limits")
    func profile() throws {
        let pki = try TestPKI(seed: 7, at: Fixtures.time)
        let iaca = pki.iaca
        #expect(iaca.isSelfSigned)
        #expect(iaca.keyUsage == [.keyCertSign, .cRLSign])
        #expect(iaca.basicConstraints == BasicConstraints(isCA: true, pathLengthConstraint: 0))
        #expect(iaca.extensions.filter(\.isCritical).map(\.oid).sorted() == [X509ExtensionOID.keyUsage, X509ExtensionOID.basicConstraints].sorted())
        #expect(iaca.subjectKeyIdentifier != nil)
        #expect(iaca.issuerAlternativeNames == [.uri("https://iaca.mdoc-testing.invalid/")])
        #expect(iaca.crlDistributionPoints.first?.fullNames == [.uri("https://iaca.mdoc-testing.invalid/crl")])
        #expect(iaca.notAfter.timeIntervalSince(iaca.notBefore) <= 20 * 365.25 * 86_400)
        #expect(iaca.subject.countryName == "US")

        let ds = pki.documentSigner
        #expect(ds.isSignedBy(iaca))
        #expect(ds.keyUsage == [.digitalSignature])
        #expect(ds.extendedKeyUsage == ["1.0.18013.5.1.2"])
        #expect(Set(ds.extensions.filter(\.isCritical).map(\.oid)) == [X509ExtensionOID.keyUsage, X509ExtensionOID.extendedKeyUsage])
        #expect(ds.authorityKeyIdentifier == iaca.subjectKeyIdentifier)
        #expect(ds.subjectKeyIdentifier != nil)
        #expect(ds.basicConstraints == nil)
        #expect(ds.subject.countryName == iaca.subject.countryName)
        #expect(ds.subject.stateOrProvinceName == iaca.subject.stateOrProvinceName)
        #expect(ds.notAfter.timeIntervalSince(ds.notBefore) <= 457 * 86_400)
        #expect(ds.notBefore <= Fixtures.time && Fixtures.time <= ds.notAfter)
        #expect(pki.trustStore.validate(leaf: ds, at: Fixtures.time).isTrusted)
    }

    @Test("the same seed gives the same keys, names, serials and validity; another seed other keys")
    func reproducible() throws {
        let a = try TestPKI(seed: 42, curve: .p384, at: Fixtures.time)
        let b = try TestPKI(seed: 42, curve: .p384, at: Fixtures.time.addingTimeInterval(3600))
        let c = try TestPKI(seed: 43, curve: .p384, at: Fixtures.time)
        #expect(a.iacaKey.publicKey == b.iacaKey.publicKey)
        #expect(a.documentSignerKey.publicKey == b.documentSignerKey.publicKey)
        #expect(try a.deviceKey().publicKey == b.deviceKey().publicKey)
        #expect(a.iaca.serialNumber == b.iaca.serialNumber)
        #expect(a.iaca.subject == b.iaca.subject)
        #expect(a.documentSigner.notBefore == b.documentSigner.notBefore)
        #expect(a.iacaKey.publicKey != c.iacaKey.publicKey)
        #expect(try a.deviceKey().publicKey != c.deviceKey().publicKey)
        // A root from one run is a trust anchor for another run's Document Signer: same name, same key.
        #expect(b.documentSigner.isSignedBy(a.iaca))
        // Ed25519 signatures are deterministic, so whole certificates repeat.
        let ed1 = try TestPKI(seed: 5, curve: .ed25519, at: Fixtures.time)
        let ed2 = try TestPKI(seed: 5, curve: .ed25519, at: Fixtures.time)
        #expect(ed1.iaca.derEncoded == ed2.iaca.derEncoded)
        #expect(ed1.documentSigner.derEncoded == ed2.documentSigner.derEncoded)
    }

    @Test("verdicts are reproducible from the seed although ECDSA signature bytes are not")
    func verdictsRepeat() throws {
        let first = try SimulatedCase(faults: [.tamperedElementValue], seed: 9, time: Fixtures.time).run()
        let second = try SimulatedCase(faults: [.tamperedElementValue], seed: 9, time: Fixtures.time).run()
        #expect(first.report.errors.map(\.code) == second.report.errors.map(\.code))
        #expect(first.report.checks.map(\.id) == second.report.checks.map(\.id))
        // Same seed, same salts, digest IDs, device key and validity: the MSO repeats byte for byte; only
        // signatures (and the DER certificate carrying one) differ.
        let msoA = try Fixtures.mso(ofDeviceResponse: first.response.deviceResponse)
        let msoB = try Fixtures.mso(ofDeviceResponse: second.response.deviceResponse)
        #expect(msoA.raw.elementsEqual(msoB.raw))
    }

    @Test("PEM export parses back to the same certificate")
    func pem() throws {
        let pki = try TestPKI(seed: 3, curve: .p521, at: Fixtures.time)
        #expect(pki.iacaPEM.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
        #expect(try Certificate(pemEncoded: pki.iacaPEM) == pki.iaca)
        #expect(try Certificate(pemEncoded: pki.documentSignerPEM) == pki.documentSigner)
        #expect(pki.iacaPEM.split(separator: "\n").allSatisfy { $0.count <= 64 })
    }

    @Test("Document Signer deviations produce the certificates the faults need")
    func deviations() throws {
        let pki = try TestPKI(seed: 1, at: Fixtures.time)
        let validity = DateInterval(start: pki.documentSigner.notBefore, end: pki.documentSigner.notAfter)
        let ca = try pki.issueDocumentSigner(label: "t", deviations: [.certificateAuthority, .wrongExtendedKeyUsage], validity: validity, at: Fixtures.time)
        #expect(ca.certificate.basicConstraints?.isCA == true)
        #expect(ca.certificate.extendedKeyUsage == ["1.0.18013.5.1.6"])
        let noKU = try pki.issueDocumentSigner(label: "t2", deviations: [.noKeyUsage], validity: validity, at: Fixtures.time)
        #expect(noKU.certificate.keyUsage == nil)
        let rogue = try pki.issueDocumentSigner(label: "t3", validity: validity, untrustedIssuer: true, at: Fixtures.time)
        #expect(rogue.certificate.issuer == pki.iaca.subject)
        #expect(!rogue.certificate.isSignedBy(pki.iaca))
    }

    @Test("shared builds one PKI per seed, curve and day, also for many callers at once; init still makes new certificates")
    func shared() async throws {
        let time = Fixtures.time
        let ders = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0 ..< 16 { group.addTask { try TestPKI.shared(seed: 77, at: time).documentSigner.derEncoded } }
            return try await group.reduce(into: [[UInt8]]()) { $0.append($1) }
        }
        // ECDSA signatures are randomized: equal certificates mean one build.
        #expect(Set(ders).count == 1)
        let later = try TestPKI.shared(seed: 77, at: time.addingTimeInterval(3600))  // same UTC day
        #expect(later.iaca.derEncoded == (try TestPKI.shared(seed: 77, at: time)).iaca.derEncoded)
        let fresh = try TestPKI(seed: 77, at: time)
        #expect(fresh.documentSigner.derEncoded != ders[0])
        #expect(fresh.documentSignerKey.publicKey == later.documentSignerKey.publicKey)
        // Another seed: other keys; another day: other validity; another curve: another PKI.
        #expect(try TestPKI.shared(seed: 78, at: time).iacaKey.publicKey != later.iacaKey.publicKey)
        let nextDay = try TestPKI.shared(seed: 77, at: time.addingTimeInterval(86_400))
        #expect(nextDay.documentSigner.notBefore == later.documentSigner.notBefore.addingTimeInterval(86_400))
        #expect(try TestPKI.shared(seed: 77, curve: .p384, at: time).curve == .p384)
        #expect(throws: SimulationError.self) { try TestPKI.shared(curve: .x25519, at: time) }
    }

    @Test("seed material derives each key once: the same label and curve give the same key object")
    func derivedKeysAreShared() throws {
        let material = SeedMaterial(4_242)
        let first = try material.key("device/test", curve: .p256)
        #expect(try material.key("device/test", curve: .p256) === first)
        #expect(try SeedMaterial(4_242).key("device/test", curve: .p256) === first)
        #expect(try material.key("device/test", curve: .p384).publicKey != first.publicKey)
        #expect(try material.key("device/other", curve: .p256).publicKey != first.publicKey)
    }

    @Test("reader PKIs: random keys by default, seeded keys on request, and one shared build per seed")
    func readerPKI() throws {
        let a = try TestReaderPKI()
        let b = try TestReaderPKI()
        #expect(a.identity.key.publicKey != b.identity.key.publicKey)
        let seeded = try TestReaderPKI(seed: 5)
        #expect(try TestReaderPKI(seed: 5).identity.key.publicKey == seeded.identity.key.publicKey)
        #expect(try TestReaderPKI(seed: 6).identity.key.publicKey != seeded.identity.key.publicKey)
        let shared = try TestReaderPKI.shared(seed: 5)
        #expect(try TestReaderPKI.shared(seed: 5).identity.certificates[0].derEncoded == shared.identity.certificates[0].derEncoded)
        #expect(shared.identity.key.publicKey == seeded.identity.key.publicKey)
        #expect(shared.identity.certificates[0].isSignedBy(shared.root))
        #expect(try TestReaderPKI.shared(seed: 5, readerEKU: false).identity.certificates[0].extendedKeyUsage == ["1.3.6.1.5.5.7.3.2"])
    }

    @Test("X25519 cannot be an issuer curve")
    func x25519() {
        #expect(throws: SimulationError.self) { try TestPKI(curve: .x25519, at: Fixtures.time) }
    }
}
