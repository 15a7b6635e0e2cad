import CBOR
import MdocModel

/// The MSO's `status` (ISO/IEC 18013-5 second edition §9.1.2.6):
/// `{? "status_list": {"idx": uint, "uri": tstr, ? "certificate": bstr}, ? "identifier_list": {"id": bstr, "uri": tstr, ? "certificate": bstr}}`.
/// `certificate`, when present, is the certificate whose key signed the top certificate of the token's x5chain; it is
/// kept as DER here and parsed through the certificate cache by the check.
package struct MSOStatus: Sendable {
    package struct Reference: Sendable {
        package let uri: String
        package let certificateDER: ArraySlice<UInt8>?
    }

    package let statusList: (reference: Reference, index: UInt64)?
    package let identifierList: (reference: Reference, id: [UInt8])?
    /// Keys of mechanisms this verifier does not know (reported, never passed silently).
    package let unknownMechanisms: [String]

    package init(_ node: CBORItem) throws(VerificationError) {
        guard let entries = node.map else { throw Self.invalid("status is not a map") }
        var statusList: (reference: Reference, index: UInt64)?
        var identifierList: (reference: Reference, id: [UInt8])?
        var unknown: [String] = []
        for entry in entries {
            switch entry.key.text {
            case "status_list":
                guard let index = entry.value["idx"]?.uint else { throw Self.invalid("status_list has no uint `idx`") }
                statusList = (try Self.reference(entry.value, "status_list"), index)
            case "identifier_list":
                guard let id = entry.value["id"]?.bytes else { throw Self.invalid("identifier_list has no bstr `id`") }
                identifierList = (try Self.reference(entry.value, "identifier_list"), Array(id))
            default:
                unknown.append(entry.key.text.map { InputQuote.short($0) } ?? "a non-text key")
            }
        }
        self.statusList = statusList
        self.identifierList = identifierList
        self.unknownMechanisms = unknown
    }

    private static func reference(_ node: CBORItem, _ name: String) throws(VerificationError) -> Reference {
        guard let uri = node["uri"]?.text, !uri.isEmpty else { throw invalid("\(name) has no text `uri`") }
        var certificate: ArraySlice<UInt8>?
        if let node = node["certificate"] {
            guard let bytes = node.bytes, !bytes.isEmpty else { throw invalid("\(name).certificate is not a bstr") }
            certificate = bytes
        }
        return Reference(uri: uri, certificateDER: certificate)
    }

    private static func invalid(_ what: String) -> VerificationError { VerificationError(.statusInvalid, "MSO \(what)") }
}
