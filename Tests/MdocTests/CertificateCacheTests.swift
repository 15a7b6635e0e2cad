import CryptoCore
import Foundation
@testable import Mdoc
@testable import MdocModel
@testable import MdocTrust
import MdocTesting
import Testing

/// `CertificateCache.certificate(der:)` finds a certificate by its DER bytes wherever they sit in a response, parses a
/// new one only for bytes it has not seen, and never answers with a certificate for different bytes.
@Suite("The certificate cache's DER lookup")
struct CertificateCacheTests {
    static let pki: TestPKI = {
        guard let time = RFC3339.parseDateTime("2026-06-01T00:00:00Z"), let pki = try? TestPKI(seed: 3, at: time) else {
            fatalError("test PKI")
        }
        return pki
    }()

    /// `der` inside a larger buffer, as an x5chain entry sits inside a response: the slice's indices do not start at 0.
    static func embedded(_ der: [UInt8]) -> ArraySlice<UInt8> {
        let buffer = [0x59, 0x01] + der + [0xFF]
        return buffer[2 ..< 2 + der.count]
    }

    @Test("the same bytes from another buffer give the cached certificate; other bytes another one")
    func sameAndDifferentBytes() throws {
        let cache = CertificateCache()
        let signer = Self.pki.documentSigner.derEncoded
        let first = try cache.certificate(der: Self.embedded(signer))
        let again = try cache.certificate(der: Array(signer)[...])
        #expect(first === again)
        #expect(first.derEncoded == signer)

        let iaca = try cache.certificate(der: Self.embedded(Self.pki.iaca.derEncoded))
        #expect(iaca !== first)
        #expect(iaca.derEncoded == Self.pki.iaca.derEncoded)
        #expect(iaca.subject != first.subject)
    }

    @Test("bytes one byte off a cached certificate are parsed, not matched, and fail as the DER they are")
    func nearMiss() throws {
        let cache = CertificateCache()
        let signer = Self.pki.documentSigner.derEncoded
        _ = try cache.certificate(der: signer[...])
        // The same length with the last signature byte changed still parses, as a different certificate.
        var flipped = signer
        flipped[flipped.count - 1] ^= 0x01
        let other = try cache.certificate(der: flipped[...])
        #expect(other.derEncoded == flipped)
        #expect(other.sha256Fingerprint != Self.pki.documentSigner.sha256Fingerprint)
        // A prefix is not a certificate, and a failed parse is not cached.
        #expect(throws: (any Error).self) { try cache.certificate(der: signer.dropLast()) }
        #expect(throws: (any Error).self) { try cache.certificate(der: signer.dropLast()) }
    }

    @Test("past its capacity the cache starts over and parses again")
    func capacity() throws {
        let cache = CertificateCache(capacity: 1)
        let first = try cache.certificate(der: Self.pki.documentSigner.derEncoded[...])
        _ = try cache.certificate(der: Self.pki.iaca.derEncoded[...])
        let again = try cache.certificate(der: Self.pki.documentSigner.derEncoded[...])
        #expect(again !== first)
        #expect(again.derEncoded == first.derEncoded)
    }

    @Test("a path validated against one trust store never answers for another: one cache may serve several stores")
    func pathsPerStore() throws {
        let cache = CertificateCache()
        let time = try #require(RFC3339.parseDateTime("2026-06-01T12:00:00Z"))
        let trusting = Self.pki.trustStore
        guard case .trusted = cache.validate(leaf: Self.pki.documentSigner, intermediates: [], at: time, store: trusting) else {
            Issue.record("the kit's document signer must chain to its IACA")
            return
        }
        let other = try TestPKI(seed: 4, at: time).trustStore
        guard case .failed = cache.validate(leaf: Self.pki.documentSigner, intermediates: [], at: time, store: other) else {
            Issue.record("a path cached for one store answered for another")
            return
        }
        // A new store object with the same anchors (a reload) validates afresh and still trusts.
        guard case .trusted = cache.validate(leaf: Self.pki.documentSigner, intermediates: [], at: time,
                                             store: TrustStore(anchors: [Self.pki.iaca])) else {
            Issue.record("a reloaded store with the same anchor must trust the path")
            return
        }
    }
}
