import Foundation
import Mdoc

extension VerificationReport {
    /// The report as JSON: `{"verified", "format", "assurance", "errors", "checks", "documents"}`.
    /// Element values: text → string, full-date → "YYYY-MM-DD", tdate → RFC 3339, bytes → base64,
    /// bool/int as JSON, arrays and maps recursively. No documents unless verified.
    public var json: JSONValue {
        .object([
            ("verified", .bool(verified)),
            ("format", .string(format.rawValue)),
            ("assurance", .string(assurance.rawValue)),
            ("errors", .array(errors.map(\.json))),
            ("checks", .array(checks.map(Self.json(for:)))),
            ("documents", .array(documents.map(Self.json(for:)))),
        ])
    }

    static func json(for check: CheckResult) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("id", .string(check.id.rawValue)),
            ("status", .string(check.status.rawValue)),
            ("detail", .string(check.detail)),
            ("clause", .string(check.clause)),
        ]
        if let document = check.document { pairs.append(("document", .int(document))) }
        if let code = check.code { pairs.append(("code", .string(code.rawValue))) }
        return .object(pairs)
    }

    static func json(for document: VerifiedDocument) -> JSONValue {
        let nameSpaces = document.elements.keys.sorted()
        let elements: [(String, JSONValue)] = nameSpaces.map { ns in
            let entries = document.elements[ns] ?? [:]
            return (ns, .object(entries.sorted { $0.key < $1.key }.map { ($0.key, json(for: $0.value.value)) }))
        }
        let intents: [(String, JSONValue)] = nameSpaces.map { ns in
            let entries = document.elements[ns] ?? [:]
            return (ns, .object(entries.sorted { $0.key < $1.key }.map { ($0.key, $0.value.intentToRetain.map(JSONValue.bool) ?? .null) }))
        }
        return .object([
            ("docType", .string(document.docType)),
            ("issuer", .object([
                ("documentSigner", .string(document.issuer.documentSigner)),
                ("root", document.issuer.root.map(JSONValue.string) ?? .null),
                ("validFrom", .string(RFC3339.format(document.issuer.documentSignerValidFrom))),
                ("validUntil", .string(RFC3339.format(document.issuer.documentSignerValidUntil))),
                ("anchor", document.issuer.anchor.map(json(for:)) ?? .null),
            ])),
            ("validity", .object([
                ("signed", .string(document.validity.signedAt.description)),
                ("validFrom", .string(document.validity.validFromAt.description)),
                ("validUntil", .string(document.validity.validUntilAt.description)),
                ("expectedUpdate", document.validity.expectedUpdateAt.map { .string($0.description) } ?? .null),
            ])),
            ("elements", .object(elements)),
            ("intentToRetain", .object(intents)),
            ("deviceSigned", .object(document.deviceSigned.sorted { $0.key < $1.key }.map {
                ($0.key, .array($0.value.map(JSONValue.string)))
            })),
            ("derived", .object(document.derived.sorted { $0.key < $1.key }.map {
                ($0.key, .object($0.value.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
            })),
            ("missing", .array(document.missing.map(JSONValue.string))),
        ])
    }

    static func json(for anchor: VerifiedDocument.Anchor) -> JSONValue {
        .object([
            ("subject", .string(anchor.subject)),
            ("certificateSHA256", .string(Hex.encode(anchor.certificateSHA256))),
            ("selfSigned", .bool(anchor.selfSigned)),
            ("source", anchor.source.map(JSONValue.string) ?? .null),
            ("listNextUpdate", anchor.listNextUpdate.map { .string(RFC3339.format($0)) } ?? .null),
            ("listStale", .bool(anchor.listStale)),
        ])
    }

    static func json(for value: ElementValue) -> JSONValue {
        switch value {
        case .text(let s): return .string(s)
        case .unsigned(let v): return .int(v)
        case .negative(let v): return .int(v)
        case .bool(let b): return .bool(b)
        case .bytes(let b): return .string(Data(b).base64EncodedString())
        case .fullDate(let d): return .string(d)
        case .dateTime(let text, _): return .string(RFC3339.Timestamp(parsing: text)?.description ?? text)
        case .float(let d): return d.isFinite ? .number(String(d)) : .string(String(d))
        case .array(let items): return .array(items.map(json(for:)))
        case .map(let entries):
            return .object(entries.map { entry in
                let key: String
                switch entry.key {
                case .text(let s): key = s
                default: key = entry.key.summary
                }
                return (key, json(for: entry.value))
            })
        case .tagged(_, let inner): return json(for: inner)
        case .null: return .null
        }
    }
}

extension VerificationError {
    /// `{"code", "message"}`: how every error is written, in reports and in the server's error answers.
    public var json: JSONValue {
        .object([("code", .string(code.rawValue)), ("message", .string(message))])
    }
}
