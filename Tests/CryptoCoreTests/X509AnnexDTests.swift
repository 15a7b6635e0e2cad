import TestSupport
import CryptoCore
import Foundation
import Testing

/// ISO/IEC 18013-5 Annex D "utopia" certificates.
@Suite struct X509AnnexDTests {
    @Test func documentSignerFields() throws {
        let ds = try X509Fixtures.annexD("ds_cert")
        print("Annex D DS:", ds)
        #expect(ds.subject.description == "C=US, CN=utopia ds")
        #expect(ds.subject.attributes.map(\.shortName) == ["CN", "C"])  // encoding order: CN first
        #expect(ds.subject.countryName == "US")
        #expect(ds.subject.stateOrProvinceName == nil)
        #expect(ds.issuer.description == "C=US, CN=utopia iaca")
        #expect(ds.notBefore == X509Fixtures.date("2020-10-01T00:00:00Z"))
        #expect(ds.notAfter == X509Fixtures.date("2021-10-01T00:00:00Z"))
        #expect(X509Fixtures.hex(ds.serialNumber) == "3c4416eed784f3b413e48f56f075abfa6d87eb84")
        #expect(ds.serialNumberOctetCount == 20)
        #expect(ds.isSerialNumberPositive)

        #expect(ds.keyUsage == .digitalSignature)
        #expect(ds.extendedKeyUsage == ["1.0.18013.5.1.2"])
        #expect(ds.basicConstraints == nil)
        #expect(ds.subjectKeyIdentifier.map(X509Fixtures.hex) == "14e29017a6c35621ffc7a686b7b72db06cd12351")
        #expect(ds.subjectKeyIdentifier == ds.subjectPublicKeyBitsSHA1)
        #expect(ds.authorityKeyIdentifier.map(X509Fixtures.hex) == "54fa2383a04c28e0d930792261c80c4881d2c00b")
        #expect(ds.issuerAlternativeNames == [.email("example@example.com")])
        // The CRL distribution point is a dNSName, not a URI.
        #expect(ds.crlDistributionPoints == [
            CRLDistributionPoint(fullNames: [.dns("example.com")], hasReasons: false, hasCRLIssuer: false)
        ])
        let critical = Dictionary(uniqueKeysWithValues: ds.extensions.map { ($0.oid, $0.isCritical) })
        #expect(critical == [
            "2.5.29.18": false, "2.5.29.31": false, "2.5.29.14": false, "2.5.29.35": false,
            "2.5.29.15": true, "2.5.29.37": true,
        ])
        #expect(try ds.publicKey().curve == .p256)
    }

    @Test func iacaFields() throws {
        let iaca = try X509Fixtures.annexD("iaca_cert")
        print("Annex D IACA:", iaca)
        #expect(iaca.subject.description == "C=US, CN=utopia iaca")
        #expect(iaca.isSelfSigned)
        #expect(iaca.notBefore == X509Fixtures.date("2020-10-01T00:00:00Z"))
        #expect(iaca.notAfter == X509Fixtures.date("2029-09-29T00:00:00Z"))
        #expect(iaca.keyUsage == [.keyCertSign, .cRLSign])
        #expect(iaca.basicConstraints == BasicConstraints(isCA: true, pathLengthConstraint: 0))
        #expect(iaca.authorityKeyIdentifier == nil)
        #expect(iaca.subjectKeyIdentifier == iaca.subjectPublicKeyBitsSHA1)
        #expect(iaca.issuerAlternativeNames == [.email("example@example.com")])
        #expect(iaca.crlDistributionPoints.first?.fullNames == [.dns("example.com")])
        let critical = Dictionary(uniqueKeysWithValues: iaca.extensions.map { ($0.oid, $0.isCritical) })
        #expect(critical == [
            "2.5.29.18": false, "2.5.29.31": false, "2.5.29.14": false, "2.5.29.15": true, "2.5.29.19": true,
        ])
    }

    /// The DS's EKU 1.0.18013.5.1.2 is critical; OpenSSL handles EKU, so that is no obstacle.
    @Test func chainValidAndExpired() throws {
        let ds = try X509Fixtures.annexD("ds_cert")
        let iaca = try X509Fixtures.annexD("iaca_cert")
        let store = TrustStore(anchors: [iaca])
        #expect(store.anchor(for: ds) === iaca)
        #expect(X509Fixtures.expectTrusted(store.validate(leaf: ds, at: X509Fixtures.date("2021-01-01T00:00:00Z"))) == [ds, iaca])
        let expired = X509Fixtures.expectFailure(store.validate(leaf: ds, at: X509Fixtures.date("2021-10-02T00:00:00Z")), .expired)
        #expect(expired?.depth == 0)
        // Passing the anchor again as an "intermediate" changes nothing.
        #expect(X509Fixtures.expectTrusted(
            store.validate(leaf: ds, intermediates: [iaca], at: X509Fixtures.date("2021-01-01T00:00:00Z"))) == [ds, iaca])
    }

    @Test func readerChain() throws {
        let reader = try X509Fixtures.annexD("reader_cert")
        let root = try X509Fixtures.annexD("reader_root_cert")
        #expect(reader.extendedKeyUsage == ["1.0.18013.5.1.6"])
        #expect(reader.keyUsage == .digitalSignature)
        #expect(root.basicConstraints == BasicConstraints(isCA: true, pathLengthConstraint: 0))
        let store = TrustStore(anchors: [root])
        #expect(X509Fixtures.expectTrusted(store.validate(leaf: reader, at: X509Fixtures.date("2021-01-01T00:00:00Z"))) == [reader, root])
        // The mdoc IACA does not vouch for the reader.
        X509Fixtures.expectFailure(
            TrustStore(anchors: [try X509Fixtures.annexD("iaca_cert")]).validate(leaf: reader, at: X509Fixtures.date("2021-01-01T00:00:00Z")),
            .noTrustedAnchor)
    }

    @Test func sameBytesFromEUDITranscription() throws {
        let iaca = try X509Fixtures.annexD("iaca_cert")
        let copy = try X509Fixtures.hexFile("TestVectors/iso18013-5/annex-d/eudi-ios-D5/d52_iaca.hex")
        #expect(try Certificate(derEncoded: copy) == iaca)
        #expect(Set([iaca, try Certificate(derEncoded: copy)]).count == 1)
    }
}
