import CBOR
import CryptoCore
import Foundation
import MdocModel

/// A Verified Issuer Certificate Authority List (ISO/IEC 18013-5 Annex C), as read from its payload:
/// `{"version", "vicalProvider", "date", ? "vicalIssueID", ? "nextUpdate", "certificateInfos": [* CertificateInfo]}`.
/// Unknown keys are ignored (real lists carry some, e.g. AAMVA's "Extensions"); entries are deduplicated by SPKI.
public struct VICAL: Sendable {
    /// One `CertificateInfo` of the list: an IACA certificate and the docTypes it may anchor.
    public struct Entry: Sendable {
        /// The IACA certificate.
        public let certificate: Certificate
        /// The docTypes this IACA may anchor.
        public let docTypes: [String]
        /// The `issuingAuthority` the entry gives, if any.
        public let issuingAuthority: String?
        /// The `issuingCountry` the entry gives, if any.
        public let issuingCountry: String?
        /// The `stateOrProvinceName` the entry gives, if any.
        public let stateOrProvinceName: String?
        /// SHA-256 of the certificate's SubjectPublicKeyInfo.
        public var spkiSHA256: [UInt8] { certificate.subjectPublicKeyInfoSHA256 }
    }

    /// The list's `version`.
    public let version: String
    /// The `vicalProvider`: who publishes the list.
    public let provider: String
    /// The list's issue `date`.
    public let date: RFC3339.Timestamp
    /// The `vicalIssueID`, if present; `VICALVerification` refuses one lower than the previously imported one.
    public let issueID: UInt64?
    /// The `nextUpdate`, if present: past it, the list is stale.
    public let nextUpdate: RFC3339.Timestamp?
    /// Deduplicated by SPKI, first occurrence kept, docTypes merged.
    public let entries: [Entry]
    /// How many entries the list held before deduplication.
    public let listedCount: Int

    /// Parses the payload (the bytes inside the COSE_Sign1). Throws `vical.malformed` naming the problem.
    package init(payload: ArraySlice<UInt8>) throws(VerificationError) {
        func malformed(_ what: String) -> VerificationError { VerificationError(.vicalMalformed, what) }
        let item: CBORItem
        do {
            item = try CBORDecoder.decode(payload)
        } catch {
            throw malformed("the payload is not CBOR: \(error)")
        }
        guard item.isMap else { throw malformed("the payload is not a map") }
        guard let version = item["version"]?.text else { throw malformed("no text `version`") }
        guard let provider = item["vicalProvider"]?.text else { throw malformed("no text `vicalProvider`") }
        guard let date = Self.tdate(item["date"]) else { throw malformed("no tdate `date`") }
        var nextUpdate: RFC3339.Timestamp?
        if let node = item["nextUpdate"] {
            guard let parsed = Self.tdate(node) else { throw malformed("`nextUpdate` is not a tdate") }
            nextUpdate = parsed
        }
        var issueID: UInt64?
        if let node = item["vicalIssueID"] {
            guard let id = node.uint else { throw malformed("`vicalIssueID` is not an unsigned integer") }
            issueID = id
        }
        guard let infos = item["certificateInfos"]?.array else { throw malformed("no `certificateInfos` array") }
        var entries: [Entry] = []
        for (index, info) in infos.enumerated() {
            let entry = try Self.entry(info, index: index)
            if let existing = entries.firstIndex(where: { $0.spkiSHA256 == entry.spkiSHA256 }) {
                let merged = entries[existing].docTypes + entry.docTypes.filter { !entries[existing].docTypes.contains($0) }
                let kept = entries[existing]
                entries[existing] = Entry(certificate: kept.certificate, docTypes: merged, issuingAuthority: kept.issuingAuthority,
                                          issuingCountry: kept.issuingCountry, stateOrProvinceName: kept.stateOrProvinceName)
            } else {
                entries.append(entry)
            }
        }
        self.version = version
        self.provider = provider
        self.date = date
        self.issueID = issueID
        self.nextUpdate = nextUpdate
        self.entries = entries
        self.listedCount = infos.count
    }

    static func entry(_ info: CBORItem, index: Int) throws(VerificationError) -> Entry {
        func malformed(_ what: String) -> VerificationError { VerificationError(.vicalMalformed, "certificateInfos[\(index)]: \(what)") }
        guard info.isMap else { throw malformed("not a map") }
        guard let der = info["certificate"]?.bytes else { throw malformed("no byte-string `certificate`") }
        let certificate: Certificate
        do {
            certificate = try Certificate(derEncoded: Array(der))
        } catch {
            throw malformed("`certificate` is not a DER X.509 certificate")
        }
        guard let docTypeList = info["docType"]?.array, !docTypeList.isEmpty else { throw malformed("no non-empty `docType` array") }
        var docTypes: [String] = []
        for node in docTypeList {
            guard let docType = node.text else { throw malformed("`docType` holds a non-text entry") }
            if !docTypes.contains(docType) { docTypes.append(docType) }
        }
        return Entry(certificate: certificate, docTypes: docTypes, issuingAuthority: info["issuingAuthority"]?.text,
                     issuingCountry: info["issuingCountry"]?.text, stateOrProvinceName: info["stateOrProvinceName"]?.text)
    }

    static func tdate(_ node: CBORItem?) -> RFC3339.Timestamp? {
        guard let node, let (tag, inner) = node.tag, tag == 0, let text = inner.text else { return nil }
        return RFC3339.Timestamp(parsing: text)
    }
}
