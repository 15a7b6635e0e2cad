import CBOR
import CryptoCore
import Foundation

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
    ///   - previousIssueID: the `vicalIssueID` already imported from this provider; a lower one is a rollback.
    ///   - profile: `.strict` refuses a stale list (`vical.stale`); `.default` accepts it and reports `freshness`.
    /// - Throws: `vical.malformed` (not a COSE_Sign1, detached payload, no usable x5chain, a payload not of the
    ///   Annex C shape), `vical.signer_untrusted` (no signer EKU, no pinned root, no path to one),
    ///   `vical.signature_invalid`, `vical.rollback`, or under `.strict` `vical.stale`.
    public init(_ bytes: [UInt8], roots: [Certificate], at time: Date, previousIssueID: UInt64? = nil,
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
        guard case .trusted(let path) = store.validate(leaf: signer, intermediates: Array(chain.dropFirst()), at: time),
              let root = path.last
        else {
            throw VerificationError(.vicalSignerUntrusted, "the signer \(signer.subject) does not chain to a pinned VICAL root at "
                                    + "\(RFC3339.format(time))")
        }
        try Self.checkSignature(message, payload: payload, signer: signer)
        let vical = try VICAL(payload: payload)
        if let previousIssueID, let issueID = vical.issueID, issueID < previousIssueID {
            throw VerificationError(.vicalRollback, "vicalIssueID \(issueID) is lower than the imported \(previousIssueID)")
        }
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

    /// The certificates a VICAL carries in its x5chain, signer first (to resolve a pinned root given by fingerprint).
    ///
    /// - Throws: `vical.malformed` when the bytes are not a COSE_Sign1 with a well-formed x5chain.
    public static func carriedCertificates(_ bytes: [UInt8]) throws(VerificationError) -> [Certificate] {
        try x5chain(try message(bytes))
    }

    static func message(_ bytes: [UInt8]) throws(VerificationError) -> COSEMessage {
        let item: CBORItem
        do {
            item = try CBORDecoder.decode(bytes)
        } catch {
            throw VerificationError(.vicalMalformed, "not CBOR: \(error)")
        }
        let message: COSEMessage
        do {
            message = try COSEMessage(item, tag: COSETag.sign1)
        } catch {
            throw VerificationError(.vicalMalformed, "not a COSE_Sign1: \(error)")
        }
        if let problem = message.headerProblem(understood: COSEHeaderLabel.processedInIssuerAuth) {
            throw VerificationError(.vicalMalformed, problem)
        }
        return message
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
