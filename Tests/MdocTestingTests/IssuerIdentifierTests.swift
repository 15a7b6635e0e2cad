import CBOR
import CryptoCore
import KitCertificates
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import Testing
import Verifier

/// Issuer identifiers offered in requests: what each anchor contributes, and when no list is offered at all.
@Suite("Issuer identifiers for requests")
struct IssuerIdentifierTests {
    static func ca(ski: [UInt8]?, key: PrivateKey, name: String) throws -> Certificate {
        var extensions: [CertificateBuilder.Extension] = [.basicConstraints(isCA: true, pathLength: 0, critical: true)]
        if let ski { extensions.append(.subjectKeyIdentifierValue(ski)) }
        return try CertificateBuilder(subject: [("CN", name)], notBefore: Fixtures.time.addingTimeInterval(-86_400),
                                      notAfter: Fixtures.time.addingTimeInterval(86_400), publicKey: key.publicKey, extensions: extensions)
            .sign(issuer: nil, issuerKey: key)
    }

    @Test("a CA anchor gives its subjectKeyIdentifier, a pinned document signer its authorityKeyIdentifier; a scope leaves anchors out")
    func perAnchor() throws {
        let pki = try TestPKI(seed: 31, at: Fixtures.time)
        let iacaKeyID = try #require(pki.iaca.subjectKeyIdentifier)
        #expect(IssuerIdentifiers.offer(for: DocType.mDL, in: TrustStore(anchors: [pki.iaca])) == [iacaKeyID])
        #expect(pki.documentSigner.authorityKeyIdentifier == iacaKeyID)
        #expect(IssuerIdentifiers.offer(for: DocType.mDL, in: TrustStore(anchors: [pki.documentSigner], allowNonSelfSignedAnchors: true))
            == [iacaKeyID])

        let other = try TestPKI(seed: 32, at: Fixtures.time)
        let scoped = TrustStore(anchors: [pki.iaca, other.iaca],
                                provenance: [other.iaca.sha256Fingerprint: AnchorProvenance(docTypes: [DocType.photoID])])
        #expect(IssuerIdentifiers.offer(for: DocType.mDL, in: scoped) == [iacaKeyID])
        #expect(IssuerIdentifiers.offer(for: DocType.photoID, in: scoped)?.count == 2)
        #expect(IssuerIdentifiers.offer(for: [DocType.mDL, "org.example.unknown"], in: TrustStore(anchors: [pki.iaca]))
            == [DocType.mDL: [iacaKeyID], "org.example.unknown": [iacaKeyID]])
    }

    @Test("no list when an anchor has no key identifier, one is over 64 bytes, there are over 1,000, or none anchors the docType")
    func noList() throws {
        let key = try PrivateKey.generate(.p256)
        let plain = try Self.ca(ski: [1, 2, 3], key: key, name: "plain")
        #expect(IssuerIdentifiers.offer(for: DocType.mDL, in: TrustStore(anchors: [plain])) == [[1, 2, 3]])
        let withoutSKI = try Self.ca(ski: nil, key: key, name: "no SKI")
        #expect(IssuerIdentifiers.offer(for: DocType.mDL, in: TrustStore(anchors: [plain, withoutSKI])) == nil)
        let long = try Self.ca(ski: [UInt8](repeating: 7, count: 65), key: key, name: "long SKI")
        #expect(IssuerIdentifiers.offer(for: DocType.mDL, in: TrustStore(anchors: [plain, long])) == nil)
        let exactly64 = try Self.ca(ski: [UInt8](repeating: 7, count: 64), key: key, name: "64-byte SKI")
        #expect(IssuerIdentifiers.offer(for: DocType.mDL, in: TrustStore(anchors: [exactly64]))?.first?.count == 64)
        let many = try (0...IssuerIdentifiers.maxCount).map { index in
            try Self.ca(ski: [UInt8(index >> 8), UInt8(index & 0xFF)], key: key, name: "CA \(index)")
        }
        #expect(IssuerIdentifiers.offer(for: DocType.mDL, in: TrustStore(anchors: Array(many.dropLast())))?.count == 1000)
        #expect(IssuerIdentifiers.offer(for: DocType.mDL, in: TrustStore(anchors: many)) == nil)
        let photoOnly = TrustStore(anchors: [plain], provenance: [plain.sha256Fingerprint: AnchorProvenance(docTypes: [DocType.photoID])])
        #expect(IssuerIdentifiers.offer(for: DocType.mDL, in: photoOnly) == nil)
    }

    @Test("the embedded production bundle offers one identifier per mDL anchor key")
    func productionBundle() throws {
        let store = try ProductionTrustBundle.trustStore()
        let identifiers = try #require(IssuerIdentifiers.offer(for: DocType.mDL, in: store))
        let expected = Set(store.anchors.filter { store.provenance[$0.sha256Fingerprint]?.docTypes?.contains(DocType.mDL) ?? true }
            .compactMap(\.subjectKeyIdentifier))
        #expect(Set(identifiers) == expected)
        #expect(identifiers.count >= 20)
    }

    @Test("ItemsRequest carries them in requestInfo.issuerIdentifiers and parses them back; a malformed list is input.malformed")
    func itemsRequest() throws {
        let items = ItemsRequest(docType: DocType.mDL, nameSpaces: [.init("org.iso.18013.5.1", elements: [.init("age_over_21", intentToRetain: false)])],
                                 issuerIdentifiers: [[0xAA, 0xBB], [0xCC]])
        let decoded = try ItemsRequest(decoding: try CBORDecoder.decode(items.encoded))
        #expect(decoded == items)
        let bare = ItemsRequest(docType: DocType.mDL, nameSpaces: items.nameSpaces)
        #expect(!String(decoding: bare.encoded, as: UTF8.self).contains("requestInfo"))
        let bad = CBOREncoder.encode(.map([
            (.text("docType"), .text(DocType.mDL)), (.text("nameSpaces"), .map([(.text("org.iso.18013.5.1"), .map([(.text("age_over_21"), .bool(false))]))])),
            (.text("requestInfo"), .map([(.text("issuerIdentifiers"), .array([.text("x")]))])),
        ]))
        #expect(throws: VerificationError.self) { try ItemsRequest(decoding: try CBORDecoder.decode(bad)) }
    }
}
