import CryptoCore
import Foundation
import MdocModel

/// A signed trust list's kind, and what its lifecycle (download, verify, judge rollback, keep) needs to know of it,
/// the same for `mdocverify trust … import|fetch` and the server's refresh.
package enum TrustListKind: String, Sendable, CaseIterable {
    /// An ISO/IEC 18013-5 VICAL (COSE_Sign1).
    case vical
    /// An ETSI TS 119 602 List of Trusted Entities (JWS).
    case lote

    /// How messages name the list.
    package var noun: String { self == .vical ? "VICAL" : "LoTE" }

    /// The Accept header of a download.
    package var accept: String {
        switch self {
        case .vical: "application/cose, application/cbor, application/octet-stream;q=0.9, */*;q=0.5"
        case .lote: "application/jose, application/jws, application/json;q=0.9, */*;q=0.5"
        }
    }

    /// The largest list read or downloaded.
    package var maxBytes: Int { self == .vical ? 16 << 20 : LoTEVerification.maxBytes }

    /// The first of the list signer's path `certificates` outside its validity at `time`, as "the <noun> signer
    /// certificate (or certificate) <subject> expired on …" or "… is valid only from …" with the verification time;
    /// nil when none is.
    func signerOutsideValidity(_ certificates: [Certificate], at time: Date) -> String? {
        guard let certificate = certificates.first(where: { $0.notAfter < time || $0.notBefore > time }) else { return nil }
        let role = certificate == certificates.first ? "\(noun) signer certificate" : "certificate"
        let message = certificate.notAfter < time
            ? "the \(role) \(certificate.subject) expired on \(RFC3339.format(certificate.notAfter))"
            : "the \(role) \(certificate.subject) is valid only from \(RFC3339.format(certificate.notBefore))"
        return message + " (verification time \(RFC3339.format(time)))"
    }

    /// The code of a list whose signer does not chain to a pinned root.
    package var signerUntrusted: ErrorCode { self == .vical ? .vicalSignerUntrusted : .loteSignerUntrusted }

    /// The certificates the list carries (its signer chain), where a root pinned by fingerprint is resolved; none when
    /// the bytes are not such a list.
    package func carriedCertificates(_ bytes: [UInt8]) -> [Certificate] {
        switch self {
        case .vical: (try? VICALVerification.carriedCertificates(bytes)) ?? []
        case .lote: (try? LoTEVerification.carriedCertificates(bytes)) ?? []
        }
    }

    /// Verifies `bytes` against `roots` at `time`; rollback is judged apart (`VerifiedTrustList.rollback(previous:)`),
    /// once the caller knows the list is the one it keeps.
    /// - Throws: the list's `vical.*` or `lote.*` refusal; a VICAL whose provider starts with `lote:` (it would share a
    ///   LoTE's rollback mark) is `vical.malformed`.
    package func verify(_ bytes: [UInt8], roots: [Certificate], at time: Date, profile: CertificateProfile) throws(VerificationError) -> VerifiedTrustList {
        switch self {
        case .vical:
            let verified = try VICALVerification(bytes, roots: roots, at: time, profile: profile)
            guard !verified.vical.provider.utf8.starts(with: LoTE.rollbackKeyPrefix.utf8) else {
                throw VerificationError(.vicalMalformed, "the VICAL's provider \(InputQuote.short(verified.vical.provider)) starts with "
                                        + "\"\(LoTE.rollbackKeyPrefix)\", which names LoTE rollback marks; the list is not loaded")
            }
            return .vical(verified)
        case .lote: return .lote(try LoTEVerification(bytes, roots: roots, at: time, profile: profile))
        }
    }
}

/// A trust list that verified.
package enum VerifiedTrustList: Sendable {
    case vical(VICALVerification)
    case lote(LoTEVerification)

    /// The key its rollback mark is kept under: the VICAL's provider, or `lote:<operator>|<type>`.
    package var markKey: String {
        switch self {
        case .vical(let verified): verified.vical.provider
        case .lote(let verified): verified.lote.rollbackKey
        }
    }

    /// Its rollback mark: the VICAL's `vicalIssueID` (nil without one), the LoTE's `LoTESequenceNumber`.
    package var mark: UInt64? {
        switch self {
        case .vical(let verified): verified.vical.issueID
        case .lote(let verified): verified.lote.sequenceNumber
        }
    }

    /// Whose list it is, in words.
    package var owner: String {
        switch self {
        case .vical(let verified): verified.vical.provider
        case .lote(let verified): "\(verified.lote.operatorName) (\(verified.lote.type ?? "no LoTEType"))"
        }
    }

    /// What the list is: whose, which issue, how many entries, until when.
    package var summary: String {
        switch self {
        case .vical(let verified):
            let vical = verified.vical
            return "\(vical.provider), issue \(vical.issueID.map(String.init) ?? "none"), \(vical.entries.count) IACA(s), dated \(vical.date)"
                + (vical.nextUpdate.map { ", next update \($0)" } ?? "")
        case .lote(let verified):
            let lote = verified.lote
            return "\(owner), sequence \(lote.sequenceNumber), \(lote.services.count) service(s), issued \(lote.issueDate), "
                + "next update \(lote.nextUpdate)"
        }
    }

    /// `vical.rollback` or `lote.rollback` when the list is older than `previous`, the highest mark accepted.
    package func rollback(previous: UInt64?) -> VerificationError? {
        switch self {
        case .vical(let verified): VICALVerification.rollback(verified.vical, previousIssueID: previous)
        case .lote(let verified): LoTEVerification.rollback(verified.lote, previousSequenceNumber: previous)
        }
    }

    /// The highest mark once this list is accepted over `previous`: a mark never goes down.
    package func raisedMark(over previous: UInt64?) -> UInt64? {
        [previous, mark].compactMap { $0 }.max()
    }
}
