import CryptoCore
import Foundation

/// Caches what depends only on certificate bytes: parsed certificates (parsing is costly: docs/performance.md),
/// their public keys, Annex B profile findings, successful chain validations, and signatures of revocation
/// material (a CRL or status token by its issuer) that verified. A trusted chain stays
/// trusted for any time inside the intersection of its certificates' validity periods, so a cached result
/// is reused only for times inside that window.
package final class CertificateCache: Sendable {
    private struct ChainEntry {
        let chain: [Certificate]
        let window: ClosedRange<Date>
        /// The trust store the path was validated against (nil: a pinned anchor, named by the key): an entry answers
        /// only for that very store, so one cache may serve several stores and a reloaded store starts afresh.
        let store: TrustStore?
    }

    /// A key made of SHA-256 digests (one or several, concatenated). The digests are uniform, so hashing eight bytes of
    /// each is as good as hashing all of them, and an Array<UInt8> key is hashed a byte at a time. Equality still
    /// compares every byte.
    private struct DigestKey: Hashable {
        let bytes: [UInt8]

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(bytes.count)
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset + 8 <= raw.count {
                    hasher.combine(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                    offset += 32
                }
                if offset < raw.count { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw[offset...])) }
            }
        }
    }

    /// A certificate's DER bytes as a key: the per-process seeded `Hasher` over all of them, and equality over all of
    /// them. Looking a received certificate up this way costs a keyed hash and one comparison, not the SHA-256 digest
    /// (with its OpenSSL context) a digest key needed on every verification. A stored key owns a copy of its bytes,
    /// so the cache never keeps a response's buffer alive.
    private struct DERKey: Hashable {
        let bytes: ArraySlice<UInt8>

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }

        static func == (lhs: DERKey, rhs: DERKey) -> Bool {
            lhs.bytes.count == rhs.bytes.count && lhs.bytes.withUnsafeBytes { a in
                rhs.bytes.withUnsafeBytes { b in
                    guard let x = a.baseAddress, let y = b.baseAddress else { return true }  // both empty
                    return memcmp(x, y, a.count) == 0
                }
            }
        }
    }

    private struct State {
        var certificates: [DERKey: Certificate] = [:]
        var publicKeys: [DigestKey: PublicKey] = [:]
        var profiles: [DigestKey: [AnnexBDeviation]] = [:]
        var chains: [DigestKey: ChainEntry] = [:]
        var verifiedSignatures: Set<DigestKey> = []
    }

    private let state = Locked(State())
    private let capacity: Int

    package init(capacity: Int = 1024) {
        self.capacity = capacity
    }

    /// The parsed certificate for these DER bytes, from the cache when seen before.
    package func certificate(der: ArraySlice<UInt8>) throws -> Certificate {
        if let cached = state.withLockedValue({ $0.certificates[DERKey(bytes: der)] }) { return cached }
        let certificate = try Certificate(derEncoded: der)
        state.withLockedValue { state in
            if state.certificates.count >= capacity { state.certificates.removeAll(keepingCapacity: true) }
            state.certificates[DERKey(bytes: certificate.derEncoded[...])] = certificate
        }
        return certificate
    }

    /// The certificate's public key, extracted and validated once.
    package func publicKey(of certificate: Certificate) throws -> PublicKey {
        let key = DigestKey(certificate.sha256Fingerprint)
        if let cached = state.withLockedValue({ $0.publicKeys[key] }) { return cached }
        let publicKey = try certificate.publicKey()
        state.withLockedValue { state in
            if state.publicKeys.count >= capacity { state.publicKeys.removeAll(keepingCapacity: true) }
            state.publicKeys[key] = publicKey
        }
        return publicKey
    }

    /// Annex B findings for a document signer (and its root), computed once per certificate pair.
    package func profileDeviations(documentSigner: Certificate, root: Certificate?,
                           compute: () -> [AnnexBDeviation]) -> [AnnexBDeviation] {
        let key = DigestKey(documentSigner.sha256Fingerprint + (root?.sha256Fingerprint ?? []))
        if let cached = state.withLockedValue({ $0.profiles[key] }) { return cached }
        let deviations = compute()
        state.withLockedValue { state in
            if state.profiles.count >= capacity { state.profiles.removeAll(keepingCapacity: true) }
            state.profiles[key] = deviations
        }
        return deviations
    }

    /// Whether the signature that `key` names (the signed object's hash and the signer's fingerprint) verifies;
    /// `verify` runs only until it has once returned true. Revocation material is shared by every document of an
    /// issuer, so its signature is checked once, not at every verification.
    package func signatureVerifies(key bytes: [UInt8], _ verify: () -> Bool) -> Bool {
        let key = DigestKey(bytes)
        if state.withLockedValue({ $0.verifiedSignatures.contains(key) }) { return true }
        guard verify() else { return false }
        state.withLockedValue { state in
            if state.verifiedSignatures.count >= capacity { state.verifiedSignatures.removeAll(keepingCapacity: true) }
            state.verifiedSignatures.insert(key)
        }
        return true
    }

    /// Path validation through `store`, reusing an earlier success for the same certificates when `time`
    /// lies inside the chain's common validity window. Failures are not cached.
    package func validate(leaf: Certificate, intermediates: [Certificate], at time: Date, store: TrustStore) -> ChainValidationResult {
        validate(leaf: leaf, intermediates: intermediates, at: time, scope: [], store: store) { store }
    }

    /// Path validation to one pinned anchor (the certificate an MSO's `status` names), cached apart from the trust
    /// store's paths; the one-anchor store is built only when the cache has no answer.
    package func validate(leaf: Certificate, intermediates: [Certificate], at time: Date, pinnedAnchor: Certificate) -> ChainValidationResult {
        validate(leaf: leaf, intermediates: intermediates, at: time, scope: pinnedAnchor.sha256Fingerprint, store: nil) {
            TrustStore(anchors: [pinnedAnchor], allowNonSelfSignedAnchors: true)
        }
    }

    private func validate(leaf: Certificate, intermediates: [Certificate], at time: Date, scope: [UInt8],
                          store cachedFor: TrustStore?, _ store: () -> TrustStore) -> ChainValidationResult {
        var bytes = scope + leaf.sha256Fingerprint
        for certificate in intermediates { bytes += certificate.sha256Fingerprint }
        let key = DigestKey(bytes)
        if let entry = state.withLockedValue({ $0.chains[key] }), entry.window.contains(time), entry.store === cachedFor {
            return .trusted(chain: entry.chain)
        }
        let result = store().validate(leaf: leaf, intermediates: intermediates, at: time)
        if case .trusted(let chain) = result, !chain.isEmpty {
            let from = chain.map(\.notBefore).max() ?? time
            let until = chain.map(\.notAfter).min() ?? time
            if from <= until {
                state.withLockedValue { state in
                    if state.chains.count >= capacity { state.chains.removeAll(keepingCapacity: true) }
                    state.chains[key] = ChainEntry(chain: chain, window: from ... until, store: cachedFor)
                }
            }
        }
        return result
    }
}
