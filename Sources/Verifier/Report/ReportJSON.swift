import Foundation
import MdocModel

extension VerificationReport {
    /// The report as JSON: `{"verified", "format", "assurance", "errors", "checks", "documents"}`.
    /// Element values: text → string, full-date → "YYYY-MM-DD", tdate → RFC 3339, bytes → base64,
    /// bool/int as JSON, arrays and maps recursively. No documents unless verified.
    public var json: JSONValue {
        var builder = JSONTreeBuilder()
        builder.beginObject()
        writeMembers(to: &builder)
        builder.endObject()
        return builder.value ?? .object([])
    }

    /// The report as compact JSON bytes, the same as `json.serializedBytes()` but written without a tree; `leading`
    /// members (such as the server's `requestId`) come first.
    public func jsonBytes(leading: [(String, String)] = []) -> [UInt8] {
        var writer = JSONWriter(capacity: 16_384)
        writer.beginObject()
        for (key, value) in leading { writer.member(key, value) }
        writeMembers(to: &writer)
        writer.endObject()
        return writer.bytes
    }

    /// The report's members in their order; the one place the report's JSON layout is written.
    public func writeMembers(to sink: inout some JSONSink) {
        sink.member("verified", verified)
        sink.member("format", format.rawValue)
        sink.member("assurance", assurance.rawValue)
        sink.array("errors") { sink in
            for error in errors { error.write(to: &sink) }
        }
        sink.array("checks") { sink in
            for check in checks { Self.write(check, to: &sink) }
        }
        sink.array("documents") { sink in
            for document in documents { Self.write(document, to: &sink) }
        }
    }

    static func write(_ check: CheckResult, to sink: inout some JSONSink) {
        sink.beginObject()
        sink.member("id", check.id.rawValue)
        sink.member("status", check.status.rawValue)
        sink.member("detail", check.detail)
        sink.member("clause", check.clause)
        if let document = check.document { sink.member("document", document) }
        if let code = check.code { sink.member("code", code.rawValue) }
        sink.endObject()
    }

    static func write(_ document: VerifiedDocument, to sink: inout some JSONSink) {
        let nameSpaces = document.elements.keys.sorted()
        let sorted = nameSpaces.map { ns in (ns, (document.elements[ns] ?? [:]).sorted { $0.key < $1.key }) }
        sink.beginObject()
        sink.member("docType", document.docType)
        sink.object("issuer") { sink in
            sink.member("documentSigner", document.issuer.documentSigner)
            sink.member("root", document.issuer.root)
            sink.member("validFrom", RFC3339.format(document.issuer.documentSignerValidFrom))
            sink.member("validUntil", RFC3339.format(document.issuer.documentSignerValidUntil))
            sink.key("anchor")
            if let anchor = document.issuer.anchor { write(anchor, to: &sink) } else { sink.null() }
        }
        sink.object("validity") { sink in
            sink.member("signed", document.validity.signedAt.description)
            sink.member("validFrom", document.validity.validFromAt.description)
            sink.member("validUntil", document.validity.validUntilAt.description)
            sink.member("expectedUpdate", document.validity.expectedUpdateAt?.description)
        }
        sink.object("elements") { sink in
            for (ns, entries) in sorted {
                sink.object(ns) { sink in
                    for (identifier, element) in entries {
                        sink.key(identifier)
                        write(element.value, to: &sink)
                    }
                }
            }
        }
        sink.object("intentToRetain") { sink in
            for (ns, entries) in sorted {
                sink.object(ns) { sink in
                    for (identifier, element) in entries {
                        sink.key(identifier)
                        if let retain = element.intentToRetain { sink.bool(retain) } else { sink.null() }
                    }
                }
            }
        }
        sink.object("deviceSigned") { sink in
            for (ns, identifiers) in document.deviceSigned.sorted(by: { $0.key < $1.key }) {
                sink.array(ns) { sink in
                    for identifier in identifiers { sink.string(identifier) }
                }
            }
        }
        sink.object("derived") { sink in
            for (ns, values) in document.derived.sorted(by: { $0.key < $1.key }) {
                sink.object(ns) { sink in
                    for (identifier, value) in values.sorted(by: { $0.key < $1.key }) { sink.member(identifier, value) }
                }
            }
        }
        sink.array("missing") { sink in
            for identifier in document.missing { sink.string(identifier) }
        }
        sink.endObject()
    }

    static func write(_ anchor: VerifiedDocument.Anchor, to sink: inout some JSONSink) {
        sink.beginObject()
        sink.member("subject", anchor.subject)
        sink.member("certificateSHA256", Hex.encode(anchor.certificateSHA256))
        sink.member("selfSigned", anchor.selfSigned)
        sink.member("source", anchor.source)
        sink.member("listNextUpdate", anchor.listNextUpdate.map(RFC3339.format))
        sink.member("listStale", anchor.listStale)
        sink.endObject()
    }

    static func write(_ value: ElementValue, to sink: inout some JSONSink) {
        switch value {
        case .text(let s): sink.string(s)
        case .unsigned(let v): sink.number(String(v))
        case .negative(let v): sink.number(String(v))
        case .bool(let b): sink.bool(b)
        case .bytes(let b): sink.string(Data(b).base64EncodedString())
        case .fullDate(let d): sink.string(d)
        case .dateTime(let text, _): sink.string(RFC3339.Timestamp(parsing: text)?.description ?? text)
        case .float(let d):
            if d.isFinite { sink.number(String(d)) } else { sink.string(String(d)) }
        case .array(let items):
            sink.beginArray()
            for item in items { write(item, to: &sink) }
            sink.endArray()
        case .map(let entries):
            sink.beginObject()
            for entry in entries {
                switch entry.key {
                case .text(let s): sink.key(s)
                default: sink.key(entry.key.summary)
                }
                write(entry.value, to: &sink)
            }
            sink.endObject()
        case .tagged(_, let inner): write(inner, to: &sink)
        case .null: sink.null()
        }
    }
}

extension VerificationError {
    /// `{"code", "message"}`: how every error is written, in reports and in the server's error answers.
    public var json: JSONValue {
        var builder = JSONTreeBuilder()
        write(to: &builder)
        return builder.value ?? .object([])
    }

    /// Writes `{"code", "message"}` as the sink's next value.
    public func write(to sink: inout some JSONSink) {
        sink.beginObject()
        sink.member("code", code.rawValue)
        sink.member("message", message)
        sink.endObject()
    }
}
