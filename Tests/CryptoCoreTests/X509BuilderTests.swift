import TestSupport
import CryptoCore
import KitCertificates
import Foundation
import Testing

@Suite struct X509BuilderTests {
    @Test func iacaFieldsRoundTrip() throws {
        let (iaca, _) = try X509TestPKI.root()
        #expect(iaca.version == 3)
        #expect(iaca.subject.description == "CN=Test IACA, O=Test, ST=CA, C=US")
        #expect(iaca.subject.attributes.map(\.shortName) == ["C", "ST", "O", "CN"])
        #expect(iaca.subject.attributes.map(\.oid) == ["2.5.4.6", "2.5.4.8", "2.5.4.10", "2.5.4.3"])
        #expect(iaca.subject.countryName == "US")
        #expect(iaca.subject.stateOrProvinceName == "CA")
        #expect(iaca.subject.organizationName == "Test")
        #expect(iaca.subject.commonName == "Test IACA")
        #expect(iaca.issuer == iaca.subject)
        #expect(iaca.isSelfIssued && iaca.isSelfSigned)
        #expect(iaca.notBefore == X509TestPKI.start)
        #expect(iaca.notAfter == X509TestPKI.end)
        #expect(iaca.serialNumber.count == 16 && iaca.isSerialNumberPositive)
        #expect(iaca.serialNumberOctetCount == 16)
        #expect(iaca.signatureAlgorithmOID == "1.2.840.10045.4.3.2")
        #expect(iaca.basicConstraints == BasicConstraints(isCA: true, pathLengthConstraint: 0))
        #expect(iaca.keyUsage == [.keyCertSign, .cRLSign])
        #expect(iaca.extendedKeyUsage == nil)
        #expect(iaca.subjectKeyIdentifier == iaca.subjectPublicKeyBitsSHA1)
        #expect(iaca.subjectKeyIdentifier?.count == 20)
        #expect(iaca.authorityKeyIdentifier == nil)
        #expect(iaca.issuerAlternativeNames == [.uri("https://iaca.example.org/")])
        #expect(iaca.crlDistributionPoints == [
            CRLDistributionPoint(fullNames: [.uri("https://iaca.example.org/crl")], hasReasons: false, hasCRLIssuer: false)
        ])
        #expect(iaca.extensions.map(\.oid) == ["2.5.29.19", "2.5.29.15", "2.5.29.14", "2.5.29.18", "2.5.29.31"])
        #expect(iaca.extensions.map(\.isCritical) == [true, true, false, false, false])
        #expect(!iaca.hasInvalidExtensions)
        #expect(try iaca.publicKey().curve == .p256)
    }

    @Test func documentSignerFieldsAndChain() throws {
        let root = try X509TestPKI.root()
        let (ds, _) = try X509TestPKI.documentSigner(under: root)
        #expect(ds.issuer == root.certificate.subject)
        #expect(ds.subject.description == "CN=Test DS, ST=CA, C=US")
        #expect(!ds.isSelfIssued)
        #expect(ds.isSignedBy(root.certificate))
        #expect(ds.keyUsage == .digitalSignature)
        #expect(ds.extendedKeyUsage == ["1.0.18013.5.1.2"])
        #expect(ds.basicConstraints == nil)
        #expect(ds.authorityKeyIdentifier == root.certificate.subjectKeyIdentifier)
        #expect(ds.subjectKeyIdentifier == ds.subjectPublicKeyBitsSHA1)
        #expect(ds.crlDistributionPoints.map(\.fullNames) == [[.uri("https://iaca.example.org/crl")]])
        #expect(ds.extensions.map(\.oid) == ["2.5.29.15", "2.5.29.37", "2.5.29.35", "2.5.29.14", "2.5.29.31"])
        #expect(ds.extensions.map(\.isCritical) == [true, true, false, false, false])

        // The critical EKU 1.0.18013.5.1.2 does not trip OpenSSL's unhandled-critical-extension check.
        let store = TrustStore(anchors: [root.certificate])
        #expect(store.anchor(for: ds) === root.certificate)
        #expect(X509Fixtures.expectTrusted(store.validate(leaf: ds, at: X509TestPKI.inside)) == [ds, root.certificate])
    }

    @Test(arguments: [Curve.p256, .p384, .p521, .ed25519])
    func rootsOnEveryCurve(curve: Curve) throws {
        let root = try X509TestPKI.root(curve)
        let (ds, _) = try X509TestPKI.documentSigner(under: root, curve: curve)
        let expectedAlgorithm: String = switch curve {
        case .p256: "1.2.840.10045.4.3.2"
        case .p384: "1.2.840.10045.4.3.3"
        case .p521: "1.2.840.10045.4.3.4"
        default: "1.3.101.112"
        }
        #expect(root.certificate.signatureAlgorithmOID == expectedAlgorithm)
        #expect(ds.signatureAlgorithmOID == expectedAlgorithm)
        #expect(try root.certificate.publicKey().curve == curve)
        #expect(try ds.publicKey().curve == curve)
        #expect(root.certificate.isSelfSigned)
        #expect(ds.isSignedBy(root.certificate))
        #expect(root.certificate.subjectKeyIdentifier == root.certificate.subjectPublicKeyBitsSHA1)
        let store = TrustStore(anchors: [root.certificate])
        #expect(X509Fixtures.expectTrusted(store.validate(leaf: ds, at: X509TestPKI.inside)) == [ds, root.certificate])
    }

    @Test func mixedCurves() throws {
        let root = try X509TestPKI.root(.p384)
        let (ds, _) = try X509TestPKI.documentSigner(under: root, curve: .p256)
        #expect(ds.signatureAlgorithmOID == "1.2.840.10045.4.3.3")  // the issuer key's curve picks SHA-384
        #expect(try ds.publicKey().curve == .p256)
        X509Fixtures.expectTrusted(TrustStore(anchors: [root.certificate]).validate(leaf: ds, at: X509TestPKI.inside))
    }

    @Test func extensionEncodings() throws {
        let key = try PrivateKey.generate(.p256)
        let allUsages: KeyUsage = [
            .digitalSignature, .nonRepudiation, .keyEncipherment, .dataEncipherment, .keyAgreement,
            .keyCertSign, .cRLSign, .encipherOnly, .decipherOnly,
        ]
        let certificate = try CertificateBuilder(
            subject: [("CN", "Extensions"), ("2.5.4.5", "SN-1")], serialNumber: [0x00, 0x01],
            notBefore: X509TestPKI.start, notAfter: X509Fixtures.date("2121-03-07T20:36:14Z"), publicKey: key.publicKey,
            extensions: [
                .keyUsage(allUsages, critical: false),
                .extendedKeyUsage(["1.0.18013.5.1.2", "1.0.18013.5.1.6", "1.3.6.1.5.5.7.3.2"], critical: false),
                .basicConstraints(isCA: false, pathLength: nil, critical: false),
                .subjectKeyIdentifierValue([1, 2, 3, 4]),
                .authorityKeyIdentifier,
                .crlDistributionPointURI("http://a.example/crl"),
                .issuerAlternativeNameURI("http://a.example/"),
                .crlDistributionPointURI("http://b.example/crl"),
                .custom(oid: "1.2.3.4.5", critical: false, der: [0x05, 0x00]),
            ]
        ).sign(issuer: nil, issuerKey: key)
        #expect(certificate.keyUsage == allUsages)
        #expect(certificate.keyUsage?.description.contains("decipherOnly") == true)
        #expect(certificate.extendedKeyUsage == ["1.0.18013.5.1.2", "1.0.18013.5.1.6", "1.3.6.1.5.5.7.3.2"])
        #expect(certificate.basicConstraints == BasicConstraints(isCA: false, pathLengthConstraint: nil))
        #expect(certificate.subjectKeyIdentifier == [1, 2, 3, 4])
        #expect(certificate.subjectKeyIdentifier != certificate.subjectPublicKeyBitsSHA1)
        #expect(certificate.authorityKeyIdentifier == [1, 2, 3, 4])  // self-signed: AKI = own SKI
        #expect(certificate.crlDistributionPoints.map(\.fullNames) == [[.uri("http://a.example/crl")], [.uri("http://b.example/crl")]])
        #expect(certificate.issuerAlternativeNames == [.uri("http://a.example/")])
        #expect(certificate.firstExtension(oid: "1.2.3.4.5") == CertificateExtension(oid: "1.2.3.4.5", isCritical: false, value: [0x05, 0x00]))
        #expect(certificate.extensions.count == 8)  // the two CRL DP URIs share one extension
        #expect(certificate.subject.values(forOID: "2.5.4.5") == ["SN-1"])
        #expect(certificate.serialNumber == [0x01])
        #expect(certificate.serialNumberOctetCount == 1)
        #expect(certificate.notAfter == X509Fixtures.date("2121-03-07T20:36:14Z"))  // GeneralizedTime round trip
        #expect(!certificate.hasInvalidExtensions)
    }

    @Test func oldAndFarDates() throws {
        let key = try PrivateKey.generate(.p256)
        for (from, until) in [("1965-06-15T12:00:00Z", "2049-12-31T23:59:59Z"), ("2050-01-01T00:00:00Z", "9999-12-31T23:59:59Z")] {
            let certificate = try CertificateBuilder(
                subject: [("CN", "Dates")], notBefore: X509Fixtures.date(from), notAfter: X509Fixtures.date(until),
                publicKey: key.publicKey
            ).sign(issuer: nil, issuerKey: key)
            #expect(certificate.notBefore == X509Fixtures.date(from))
            #expect(certificate.notAfter == X509Fixtures.date(until))
            #expect(certificate.extensions.isEmpty)
        }
    }

    @Test func builderRejectsBadInput() throws {
        let key = try PrivateKey.generate(.p256)
        func build(_ subject: [(String, String)] = [("CN", "x")], serial: [UInt8] = [1],
                   extensions: [CertificateBuilder.Extension] = [], signer: PrivateKey? = nil) throws -> Certificate {
            try CertificateBuilder(subject: subject, serialNumber: serial, notBefore: X509TestPKI.start,
                                   notAfter: X509TestPKI.end, publicKey: key.publicKey, extensions: extensions)
                .sign(issuer: nil, issuerKey: signer ?? key)
        }
        #expect(throws: CryptoError.self) { try build([("C", "USA")]) }
        #expect(throws: CryptoError.self) { try build([("NOPE", "x")]) }
        #expect(throws: CryptoError.self) { try build(serial: []) }
        #expect(throws: CryptoError.self) { try build(extensions: [.extendedKeyUsage(["not.an.oid"], critical: false)]) }
        #expect(throws: CryptoError.self) { try build(extensions: [.custom(oid: "5.1", critical: false, der: [5, 0])]) }
        let x25519 = try PrivateKey.generate(.x25519)
        #expect(throws: CryptoError(.unsupportedAlgorithm, "X25519 keys cannot sign certificates")) { try build(signer: x25519) }
    }
}
