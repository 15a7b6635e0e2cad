import CBOR
import CryptoCore
import Foundation
import MdocModel

/// Verifies a VICAL (ISO/IEC 18013-5 Annex C) against the VICAL roots the operator pinned: a COSE_Sign1 (tagged or
/// not) with ES256/384/512 in its protected header, `x5chain` (a bstr or an array, signer first) whose signer has
/// EKU 1.0.18013.5.1.8 and chains to a pinned root — never to a root the VICAL carries itself — and a signature over
/// the payload as received. Then freshness (`nextUpdate`) and rollback (`vicalIssueID`).
public struct VICALVerification: Sendable {
    /// The extended key usage a VICAL signer certificate must carry.
    public static let signerEKU = "1.0.18013.5.1.8"
    /// The specification clause VICAL verification implements.
    public static let clause = "ISO/IEC 18013-5 Annex C (VICAL)"

    /// Whether the list's `nextUpdate` has passed at the verification time.
    public enum Freshness: Sendable, Equatable {
        /// `nextUpdate` has not passed.
        case fresh
        /// No `nextUpdate` in the list.
        case undated
        /// `nextUpdate` has passed.
        case stale(since: RFC3339.Timestamp)
    }

    /// The verified list.
    public let vical: VICAL
    /// The certificate that signed the list, first in its `x5chain`.
    public let signer: Certificate
    /// The pinned root the signer chains to.
    public let root: Certificate
    /// The list's freshness at the verification time.
    public let freshness: Freshness

    /// Verifies a VICAL's signer, signature, issue ID and freshness, and parses its payload.
    ///
    /// - Parameters:
    ///   - bytes: the VICAL as published: a COSE_Sign1, tagged or not.
    ///   - roots: the VICAL roots the operator pinned (PEM files or fingerprints resolved to certificates).
    ///   - time: the verification time.
    ///   - previousIssueID: the highest `vicalIssueID` ever accepted from this provider; a lower one, or a list without
    ///     an issue ID, is a rollback.
    ///   - allowRollback: the operator accepts an older list (or one without an issue ID) on purpose.
    ///   - profile: `.strict` refuses a stale list (`vical.stale`); `.default` accepts it and reports `freshness`.
    /// - Throws: `vical.malformed` (not a COSE_Sign1, detached payload, no usable x5chain, a payload not of the
    ///   Annex C shape), `vical.signer_untrusted` (no signer EKU, no pinned root, no path to one),
    ///   `vical.signer_expired` (a certificate of the signer's path outside its validity), `vical.signature_invalid`,
    ///   `vical.rollback`, or under `.strict` `vical.stale`.
    public init(_ bytes: [UInt8], roots: [Certificate], at time: Date, previousIssueID: UInt64? = nil, allowRollback: Bool = false,
                profile: CertificateProfile = .default) throws(VerificationError) {
        let message = try Self.message(bytes)
        guard let payload = message.payload else { throw VerificationError(.vicalMalformed, "the COSE_Sign1 payload is detached") }
        let chain = try Self.x5chain(message)
        let signer = chain[0]
        guard signer.extendedKeyUsage?.contains(Self.signerEKU) == true else {
            throw VerificationError(.vicalSignerUntrusted, "the signer \(signer.subject) lacks EKU \(Self.signerEKU) (VICAL signing)")
        }
        let store = TrustStore(anchors: roots)
        guard !store.isEmpty else { throw VerificationError(.vicalSignerUntrusted, "no VICAL root is pinned") }
        let root: Certificate
        switch store.validate(leaf: signer, intermediates: Array(chain.dropFirst()), at: time) {
        case .trusted(let path) where path.last != nil:
            root = path[path.count - 1]
        case .failed(let failure) where failure.reason == .expired || failure.reason == .notYetValid:
            throw Self.outsideValidity(chain + roots, payload: payload, at: time) ?? VerificationError(.vicalSignerExpired, failure.message)
        default:
            throw VerificationError(.vicalSignerUntrusted, "the signer \(signer.subject) does not chain to a pinned VICAL root at "
                                    + "\(RFC3339.format(time)); pin the root that issued it")
        }
        try Self.checkSignature(message, payload: payload, signer: signer)
        let vical = try VICAL(payload: payload)
        if !allowRollback, let rollback = Self.rollback(vical, previousIssueID: previousIssueID) { throw rollback }
        let freshness: Freshness
        if let next = vical.nextUpdate {
            freshness = next.date < time ? .stale(since: next) : .fresh
        } else {
            freshness = .undated
        }
        if case .stale(let since) = freshness, profile == .strict {
            throw VerificationError(.vicalStale, "the VICAL's nextUpdate \(since) has passed")
        }
        self.vical = vical
        self.signer = signer
        self.root = root
        self.freshness = freshness
    }

    /// `vical.rollback` when `vical` is older than issue `previousIssueID` of its provider, or has no issue ID after one
    /// with; nil otherwise (also when nothing was accepted before).
    public static func rollback(_ vical: VICAL, previousIssueID: UInt64?) -> VerificationError? {
        guard let previousIssueID else { return nil }
        guard let issueID = vical.issueID else {
            return VerificationError(.vicalRollback, "the list has no vicalIssueID, but issue \(previousIssueID) of \(vical.provider) "
                                     + "was accepted before; pass --allow-rollback (server: allowRollback) to accept it on purpose")
        }
        guard issueID < previousIssueID else { return nil }
        return VerificationError(.vicalRollback, "vicalIssueID \(issueID) is lower than issue \(previousIssueID) of \(vical.provider) "
                                 + "accepted before; pass --allow-rollback (server: allowRollback) to accept it on purpose")
    }

    /// Which certificate of the signer's path is outside its validity at `time`, and how stale the list is, as a
    /// `vical.signer_expired` error; nil when none is (OpenSSL then named another cause).
    static func outsideValidity(_ certificates: [Certificate], payload: ArraySlice<UInt8>, at time: Date) -> VerificationError? {
        guard var message = TrustListKind.vical.signerOutsideValidity(certificates, at: time) else { return nil }
        if let vical = try? VICAL(payload: payload) {
            message += "; the list is issue \(vical.issueID.map(String.init) ?? "-") of \(vical.date)"
            if let next = vical.nextUpdate, next.date < time {
                let days = Int(time.timeIntervalSince(next.date) / 86_400)
                message += ", stale since its nextUpdate \(next) (\(days) days)"
            }
        }
        return VerificationError(.vicalSignerExpired, message + "; get a current list from its provider")
    }

    /// The certificates a VICAL carries in its x5chain, signer first (to resolve a pinned root given by fingerprint).
    ///
    /// - Throws: `vical.malformed` when the bytes are not a COSE_Sign1 with a well-formed x5chain.
    public static func carriedCertificates(_ bytes: [UInt8]) throws(VerificationError) -> [Certificate] {
        try x5chain(try message(bytes))
    }

    static func message(_ bytes: [UInt8]) throws(VerificationError) -> COSEMessage {
        do {
            return try COSEMessage.sign1(bytes, understood: COSEHeaderLabel.processedInIssuerAuth)
        } catch {
            throw VerificationError(.vicalMalformed, error.description)
        }
    }

    static func x5chain(_ message: COSEMessage) throws(VerificationError) -> [Certificate] {
        let chain: [Certificate]?
        do {
            chain = try message.x5chainCertificates()
        } catch {
            throw VerificationError(.vicalMalformed, error.description)
        }
        guard let chain else { throw VerificationError(.vicalMalformed, "no x5chain") }
        return chain
    }

    static func checkSignature(_ message: COSEMessage, payload: ArraySlice<UInt8>, signer: Certificate) throws(VerificationError) {
        guard let key = try? signer.publicKey() else {
            throw VerificationError(.vicalSignatureInvalid, "the signer's key is not supported")
        }
        switch message.verifySignature(with: key, payload: payload) {
        case .valid: return
        case .unsupportedAlgorithm:
            throw VerificationError(.vicalSignatureInvalid, "the VICAL's alg is missing from the protected header or unsupported")
        case .keyMismatch(let algorithm):
            throw VerificationError(.vicalSignatureInvalid, "\(algorithm) does not fit the signer's key")
        case .invalid:
            throw VerificationError(.vicalSignatureInvalid, "the VICAL signature does not verify with the signer's key")
        }
    }
}
