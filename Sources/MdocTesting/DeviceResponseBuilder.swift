import CBOR

/// `DeviceResponse = {"version": "1.0", "documents": [+Document], "status": 0}` and its `Document`s
/// (ISO/IEC 18013-5 §8.3.2.1.2.2).
public enum DeviceResponseBuilder {
    /// Builds one `Document` map:
    /// `{"docType", "issuerSigned": {"nameSpaces": {ns: [IssuerSignedItemBytes]}, "issuerAuth"}, "deviceSigned"}`.
    ///
    /// Namespaces are written in the given order, and `nameSpaces` is left out when `issuerNameSpaces` is empty;
    /// `extraEntries` are appended to the map.
    public static func document(docType: String, issuerNameSpaces: [(nameSpace: String, items: [[UInt8]])], issuerAuth: CBORValue,
                                deviceSigned: CBORValue, extraEntries: [(CBORValue, CBORValue)] = []) -> CBORValue {
        var issuerSigned: [(CBORValue, CBORValue)] = []
        if !issuerNameSpaces.isEmpty {
            issuerSigned.append((.text("nameSpaces"), .map(issuerNameSpaces.map { (.text($0.nameSpace), .array($0.items.map { .encoded($0) })) })))
        }
        issuerSigned.append((.text("issuerAuth"), issuerAuth))
        return .map([
            (.text("docType"), .text(docType)),
            (.text("issuerSigned"), .map(issuerSigned)),
            (.text("deviceSigned"), deviceSigned),
        ] + extraEntries)
    }

    /// Encodes a DeviceResponse holding `documents`, in `style`.
    ///
    /// `documentErrors` lists docTypes the wallet says it could not return, with their codes (Table 9);
    /// `extraEntries` are appended to the top-level map.
    public static func encode(documents: [CBORValue], version: String = "1.0", status: UInt64 = 0,
                              documentErrors: [(docType: String, code: Int64)] = [],
                              extraEntries: [(CBORValue, CBORValue)] = [], style: CBOREncodingStyle = .preferred) -> [UInt8] {
        var entries: [(CBORValue, CBORValue)] = [(.text("version"), .text(version)), (.text("documents"), .array(documents))]
        if !documentErrors.isEmpty {
            entries.append((.text("documentErrors"), .array(documentErrors.map { .map([(.text($0.docType), .int($0.code))]) })))
        }
        entries.append((.text("status"), .unsigned(status)))
        return style.encode(.map(entries + extraEntries))
    }
}
