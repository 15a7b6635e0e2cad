import TestSupport
import CryptoCore
import KitCertificates
import Foundation
import Testing

/// Path-validation failures, each mapped to a reason.
@Suite struct X509ChainFailureTests {
    @Test func otherRootGivesNoTrustedAnchor() throws {
        let trusted = try X509TestPKI.root(name: "Trusted IACA")
        let other = try X509TestPKI.root(name: "Other IACA")
        let (ds, _) = try X509TestPKI.documentSigner(under: other)
        let store = TrustStore(anchors: [trusted.certificate])
        #expect(store.anchor(for: ds) == nil)
        let failure = X509Fixtures.expectFailure(store.validate(leaf: ds, at: X509TestPKI.inside), .noTrustedAnchor)
        #expect(failure?.depth == 0)
        // With the other root as an untrusted intermediate, the chain ends in an untrusted self-signed root.
        X509Fixtures.expectFailure(
            store.validate(leaf: ds, intermediates: [other.certificate], at: X509TestPKI.inside), .noTrustedAnchor)
    }

    @Test func sameNameDifferentKey() throws {
        let trusted = try X509TestPKI.root(name: "Same IACA")
        let impostor = try X509TestPKI.root(name: "Same IACA")
        let (ds, _) = try X509TestPKI.documentSigner(under: impostor)
        // The AKI differs from the trusted SKI: not a candidate, and OpenSSL finds no issuer.
        let store = TrustStore(anchors: [trusted.certificate])
        #expect(store.anchor(for: ds) == nil)
        X509Fixtures.expectFailure(store.validate(leaf: ds, at: X509TestPKI.inside), .noTrustedAnchor)
        // Both in the store: anchor(for:) picks the one whose SKI matches.
        let both = TrustStore(anchors: [trusted.certificate, impostor.certificate])
        #expect(both.anchor(for: ds) === impostor.certificate)
        X509Fixtures.expectTrusted(both.validate(leaf: ds, at: X509TestPKI.inside))

        // Issuer name and AKI of the trusted root, signature by another key: the signature check fails.
        let forged = try CertificateBuilder(
            subject: [("C", "US"), ("CN", "Forged DS")], notBefore: X509TestPKI.start, notAfter: X509TestPKI.end,
            publicKey: try PrivateKey.generate(.p256).publicKey, extensions: [.authorityKeyIdentifier]
        ).sign(issuer: trusted.certificate, issuerKey: impostor.key)
        #expect(!forged.isSignedBy(trusted.certificate))
        #expect(store.anchor(for: forged) === trusted.certificate)
        let failure = X509Fixtures.expectFailure(store.validate(leaf: forged, at: X509TestPKI.inside), .signatureInvalid)
        #expect(failure?.depth == 0)
    }

    @Test func validityWindows() throws {
        let root = try X509TestPKI.root()
        let store = TrustStore(anchors: [root.certificate])
        let (expired, _) = try X509TestPKI.documentSigner(
            under: root, notBefore: X509Fixtures.date("2024-01-01T00:00:00Z"), notAfter: X509Fixtures.date("2025-01-01T00:00:00Z"))
        X509Fixtures.expectFailure(store.validate(leaf: expired, at: X509TestPKI.inside), .expired)
        // OpenSSL counts notAfter itself as expired (RFC 5280 would still accept that second); notBefore is inclusive.
        X509Fixtures.expectTrusted(store.validate(leaf: expired, at: X509Fixtures.date("2024-12-31T23:59:59Z")))
        X509Fixtures.expectFailure(store.validate(leaf: expired, at: X509Fixtures.date("2025-01-01T00:00:00Z")), .expired)
        X509Fixtures.expectTrusted(store.validate(leaf: expired, at: X509Fixtures.date("2024-01-01T00:00:00Z")))
        X509Fixtures.expectFailure(store.validate(leaf: expired, at: X509Fixtures.date("2023-12-31T23:59:59Z")), .notYetValid)
        // Fractions of a second are dropped.
        X509Fixtures.expectTrusted(store.validate(leaf: expired, at: X509Fixtures.date("2024-12-31T23:59:59Z").addingTimeInterval(0.9)))

        let (future, _) = try X509TestPKI.documentSigner(
            under: root, notBefore: X509Fixtures.date("2026-01-01T00:00:00Z"), notAfter: X509Fixtures.date("2027-01-01T00:00:00Z"))
        X509Fixtures.expectFailure(store.validate(leaf: future, at: X509TestPKI.inside), .notYetValid)

        // An expired anchor fails too, reported at its depth.
        let oldRoot = try X509TestPKI.root(notBefore: X509Fixtures.date("2020-01-01T00:00:00Z"), notAfter: X509Fixtures.date("2025-01-01T00:00:00Z"))
        let (ds, _) = try X509TestPKI.documentSigner(under: oldRoot)
        let failure = X509Fixtures.expectFailure(TrustStore(anchors: [oldRoot.certificate]).validate(leaf: ds, at: X509TestPKI.inside), .expired)
        #expect(failure?.depth == 1)
    }

    /// pathLen 0 forbids intermediate CAs, not a CA=true leaf: OpenSSL accepts root(pathLen 0) → leaf(CA=true).
    @Test func pathLengthZero() throws {
        let root = try X509TestPKI.root(pathLength: 0)
        let store = TrustStore(anchors: [root.certificate])
        let caLeaf = try X509TestPKI.intermediate(under: root)
        #expect(caLeaf.certificate.basicConstraints?.isCA == true)
        #expect(X509Fixtures.expectTrusted(store.validate(leaf: caLeaf.certificate, at: X509TestPKI.inside)).count == 2)

        let (ds, _) = try X509TestPKI.documentSigner(under: caLeaf)
        let failure = X509Fixtures.expectFailure(
            store.validate(leaf: ds, intermediates: [caLeaf.certificate], at: X509TestPKI.inside), .pathLengthExceeded)
        #expect(failure?.depth == 2)  // reported at the root whose constraint is exceeded

        // Without a pathLen on the root the same three-level chain is fine.
        let open = try X509TestPKI.root(pathLength: nil)
        let intermediate = try X509TestPKI.intermediate(under: open)
        let (leaf, _) = try X509TestPKI.documentSigner(under: intermediate)
        let chain = X509Fixtures.expectTrusted(
            TrustStore(anchors: [open.certificate]).validate(leaf: leaf, intermediates: [intermediate.certificate], at: X509TestPKI.inside))
        #expect(chain == [leaf, intermediate.certificate, open.certificate])
    }

    @Test func intermediateWithoutCAFlag() throws {
        let root = try X509TestPKI.root(pathLength: nil)
        let notCA = try X509TestPKI.intermediate(under: root, isCA: false)
        let (ds, _) = try X509TestPKI.documentSigner(under: notCA)
        let failure = X509Fixtures.expectFailure(
            TrustStore(anchors: [root.certificate]).validate(leaf: ds, intermediates: [notCA.certificate], at: X509TestPKI.inside),
            .notACA)
        #expect(failure?.depth == 1)
    }

    /// OpenSSL reports an anchor whose KeyUsage lacks keyCertSign as INVALID_CA.
    @Test func rootWithoutKeyCertSign() throws {
        let root = try X509TestPKI.root(keyUsage: [.digitalSignature])
        let (ds, _) = try X509TestPKI.documentSigner(under: root)
        let failure = X509Fixtures.expectFailure(
            TrustStore(anchors: [root.certificate]).validate(leaf: ds, at: X509TestPKI.inside), .notACA)
        #expect(failure?.depth == 1)
    }

    @Test func unknownCriticalExtension() throws {
        let root = try X509TestPKI.root()
        let (ds, _) = try X509TestPKI.documentSigner(
            under: root, extra: [.custom(oid: "1.2.3.4.5.6", critical: true, der: [0x05, 0x00])])
        let failure = X509Fixtures.expectFailure(
            TrustStore(anchors: [root.certificate]).validate(leaf: ds, at: X509TestPKI.inside), .unhandledCriticalExtension)
        #expect(failure?.depth == 0)
        // The same extension, non-critical, is ignored.
        let (lenient, _) = try X509TestPKI.documentSigner(
            under: root, extra: [.custom(oid: "1.2.3.4.5.6", critical: false, der: [0x05, 0x00])])
        X509Fixtures.expectTrusted(TrustStore(anchors: [root.certificate]).validate(leaf: lenient, at: X509TestPKI.inside))
    }

    @Test func malformedExtensionIsInvalidCertificate() throws {
        let root = try X509TestPKI.root()
        // A BasicConstraints whose value is an OCTET STRING instead of a SEQUENCE.
        let (ds, _) = try X509TestPKI.documentSigner(
            under: root, extra: [.custom(oid: "2.5.29.19", critical: true, der: [0x04, 0x00])])
        #expect(ds.hasInvalidExtensions)
        #expect(ds.basicConstraints == nil)
        // OpenSSL itself says "unable to get local issuer certificate"; TrustStore names the malformed extension.
        let failure = X509Fixtures.expectFailure(
            TrustStore(anchors: [root.certificate]).validate(leaf: ds, at: X509TestPKI.inside), .invalidCertificate)
        #expect(failure?.depth == 0)
        #expect(failure?.message.contains("malformed") == true)
        // The other extensions still read.
        #expect(ds.subjectKeyIdentifier == ds.subjectPublicKeyBitsSHA1)
        #expect(ds.authorityKeyIdentifier == root.certificate.subjectKeyIdentifier)
        #expect(ds.keyUsage == .digitalSignature)

        // A duplicated extension is invalid as well; the typed accessor then reports nothing.
        let (duplicated, _) = try X509TestPKI.documentSigner(under: root, extra: [.keyUsage(.digitalSignature, critical: true)])
        #expect(duplicated.hasInvalidExtensions)
        #expect(duplicated.keyUsage == nil)
        #expect(duplicated.extensions.filter { $0.oid == X509ExtensionOID.keyUsage }.count == 2)
        X509Fixtures.expectFailure(
            TrustStore(anchors: [root.certificate]).validate(leaf: duplicated, at: X509TestPKI.inside), .invalidCertificate)
    }

    @Test func concurrentValidation() async throws {
        let root = try X509TestPKI.root()
        let (ds, _) = try X509TestPKI.documentSigner(under: root)
        let store = TrustStore(anchors: [root.certificate])
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<16 {
                group.addTask { store.validate(leaf: ds, at: X509TestPKI.inside).isTrusted && ds.keyUsage == .digitalSignature }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 16))
    }
}
