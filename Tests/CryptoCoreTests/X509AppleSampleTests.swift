import TestSupport
import CryptoCore
import Foundation
import Testing

/// Apple "Verify with Wallet" in-app sample: DS "PassKit Identity Test Document Signing" under the test IACA.
@Suite struct X509AppleSampleTests {
    @Test func documentSignerFields() throws {
        let ds = try X509Fixtures.appleDS()
        print("Apple DS:", ds)
        print("  extensions:", ds.extensions.map { "\($0.oid)\($0.isCritical ? " critical" : "")" })

        #expect(ds.version == 3)
        #expect(ds.subject.description == "CN=PassKit Identity Test Document Signing")
        #expect(ds.subject.commonName == "PassKit Identity Test Document Signing")
        #expect(ds.subject.countryName == nil)  // Apple's test certificates carry no countryName
        #expect(ds.issuer.description == "CN=PassKit Identity Test Issuer Root CA")
        #expect(ds.subject.attributes == [.init(oid: "2.5.4.3", shortName: "CN", value: "PassKit Identity Test Document Signing")])

        // ~99-year validity; notAfter is a GeneralizedTime (year ≥ 2050).
        #expect(ds.notBefore == X509Fixtures.date("2022-03-31T20:36:14Z"))
        #expect(ds.notAfter == X509Fixtures.date("2121-03-07T20:36:14Z"))

        #expect(X509Fixtures.hex(ds.serialNumber) == "a58850d4a494d0ed")
        #expect(ds.isSerialNumberPositive)
        #expect(ds.serialNumberOctetCount == 9)  // high bit set: a 0x00 sign octet precedes the 8 bytes
        #expect(ds.signatureAlgorithmOID == "1.2.840.10045.4.3.2")
        #expect(ds.publicKeyAlgorithmOID == "1.2.840.10045.2.1")

        #expect(ds.keyUsage == .digitalSignature)
        #expect(ds.extendedKeyUsage == ["1.0.18013.5.1.2"])
        #expect(ds.basicConstraints == BasicConstraints(isCA: false, pathLengthConstraint: nil))
        #expect(ds.subjectKeyIdentifier.map(X509Fixtures.hex) == "4e3a195b4da211eba2be9060b9dbb0267d377a26")
        #expect(ds.authorityKeyIdentifier.map(X509Fixtures.hex) == "b442d0dd6095b8e54296cc1ca8ee239d8e71877c")
        #expect(ds.subjectKeyIdentifier == ds.subjectPublicKeyBitsSHA1)
        #expect(ds.crlDistributionPoints.isEmpty)
        #expect(ds.issuerAlternativeNames.isEmpty)
        #expect(!ds.hasInvalidExtensions)

        // Only BasicConstraints is critical here (KU and EKU are not).
        let critical = Dictionary(uniqueKeysWithValues: ds.extensions.map { ($0.oid, $0.isCritical) })
        #expect(critical == [
            "2.5.29.37": false, "2.5.29.14": false, "2.5.29.35": false, "2.5.29.19": true, "2.5.29.15": false,
        ])
        #expect(ds.extensions.map(\.oid) == ["2.5.29.37", "2.5.29.14", "2.5.29.35", "2.5.29.19", "2.5.29.15"])
        #expect(ds.firstExtension(oid: X509ExtensionOID.basicConstraints)?.value == [0x30, 0x00])
        #expect(!ds.isSelfIssued)
    }

    @Test func rootFields() throws {
        let root = try X509Fixtures.appleRoot()
        print("Apple IACA:", root)
        #expect(root.subject.description == "CN=PassKit Identity Test Issuer Root CA")
        #expect(root.isSelfIssued)
        #expect(root.isSelfSigned)
        #expect(root.notBefore == X509Fixtures.date("2022-03-31T20:36:14Z"))
        #expect(root.notAfter == X509Fixtures.date("2121-03-07T20:36:14Z"))
        #expect(X509Fixtures.hex(root.serialNumber) == "863cfa1fc132500a")
        #expect(root.keyUsage == [.keyCertSign, .cRLSign])
        #expect(root.extendedKeyUsage == nil)
        #expect(root.basicConstraints == BasicConstraints(isCA: true, pathLengthConstraint: nil))  // no pathLen
        #expect(root.subjectKeyIdentifier.map(X509Fixtures.hex) == "b442d0dd6095b8e54296cc1ca8ee239d8e71877c")
        #expect(root.authorityKeyIdentifier == root.subjectKeyIdentifier)
        #expect(root.subjectKeyIdentifier == root.subjectPublicKeyBitsSHA1)
        let critical = Dictionary(uniqueKeysWithValues: root.extensions.map { ($0.oid, $0.isCritical) })
        #expect(critical == ["2.5.29.14": false, "2.5.29.35": false, "2.5.29.19": true, "2.5.29.15": true])
    }

    @Test func publicKeyMatchesIssuerSignatureVector() throws {
        let ds = try X509Fixtures.appleDS()
        let key = try ds.publicKey()
        #expect(key.curve == .p256)
        let text = try X509Fixtures.text("TestVectors/apple/in-app-sample/issuer_signature_validation.txt")
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("Public key:") })
        let expected = line.dropFirst("Public key:".count).trimmingCharacters(in: CharacterSet(charactersIn: " ,\r"))
        #expect(X509Fixtures.hex(ds.subjectPublicKeyBits) == "04" + expected)
    }

    @Test func chainValidation() throws {
        let ds = try X509Fixtures.appleDS()
        let root = try X509Fixtures.appleRoot()
        #expect(ds.isSignedBy(root))
        #expect(!root.isSignedBy(ds))
        #expect(ds.issuerMatchesSubject(of: root))

        let store = TrustStore(anchors: [root])
        #expect(!store.isEmpty)
        #expect(store.anchor(for: ds) === root)
        let chain = X509Fixtures.expectTrusted(store.validate(leaf: ds, at: X509Fixtures.date("2022-06-01T00:00:00Z")))
        #expect(chain == [ds, root])
        #expect(chain.last === root)

        // Before both certificates' notBefore: OpenSSL checks from the anchor down and reports the root.
        let early = X509Fixtures.expectFailure(
            store.validate(leaf: ds, at: X509Fixtures.date("2022-03-31T20:36:13Z")), .notYetValid)
        #expect(early?.depth == 1)
        print("not yet valid:", early.map(\.description) ?? "-")

        let empty = TrustStore(anchors: [])
        #expect(empty.isEmpty)
        #expect(empty.anchor(for: ds) == nil)
        X509Fixtures.expectFailure(empty.validate(leaf: ds, at: X509Fixtures.date("2022-06-01T00:00:00Z")), .noTrustedAnchor)

        let other = TrustStore(anchors: [try X509Fixtures.annexD("iaca_cert")])
        #expect(other.anchor(for: ds) == nil)
        let failure = X509Fixtures.expectFailure(
            other.validate(leaf: ds, at: X509Fixtures.date("2022-06-01T00:00:00Z")), .noTrustedAnchor)
        #expect(failure?.depth == 0)
        #expect(failure?.message.contains("PassKit Identity Test Document Signing") == true)
    }

    @Test func rootAsLeaf() throws {
        let root = try X509Fixtures.appleRoot()
        let time = X509Fixtures.date("2022-06-01T00:00:00Z")
        #expect(X509Fixtures.expectTrusted(TrustStore(anchors: [root]).validate(leaf: root, at: time)) == [root])
        // A self-signed certificate that is not an anchor (DEPTH_ZERO_SELF_SIGNED_CERT).
        let failure = X509Fixtures.expectFailure(
            TrustStore(anchors: [try X509Fixtures.annexD("iaca_cert")]).validate(leaf: root, at: time), .noTrustedAnchor)
        #expect(failure?.opensslErrorCode == 18)
    }

    @Test func dsAsItsOwnAnchorNeedsPartialChainPolicy() throws {
        let ds = try X509Fixtures.appleDS()
        let time = X509Fixtures.date("2022-06-01T00:00:00Z")
        X509Fixtures.expectFailure(TrustStore(anchors: [ds]).validate(leaf: ds, at: time), .noTrustedAnchor)
        let policy = TrustStore(anchors: [ds], allowNonSelfSignedAnchors: true)
        #expect(X509Fixtures.expectTrusted(policy.validate(leaf: ds, at: time)) == [ds])
        #expect(policy.anchor(for: ds) === ds)
    }
}
