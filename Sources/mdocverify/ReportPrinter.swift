import CBOR
import Foundation
import Mdoc
import Verifier

/// Prints a report and returns the exit status for its verdict.
enum ReportPrinter {
    static func emit(_ report: VerificationReport, json: Bool) -> ExitStatus {
        print(json ? report.json.serialized(pretty: true) : text(report))
        return report.verified ? .verified : .rejected
    }

    /// Verdict, then failed checks with reasons, warnings, and (when verified) the elements. Each line is escaped
    /// (`TerminalText`): details and element values carry the response's text, which must not drive the terminal.
    static func text(_ report: VerificationReport) -> String {
        var lines: [String] = []
        let assurance = report.assurance == .test ? " (TEST assurance: not a real identity)" : ""
        if report.verified {
            lines.append("VERIFIED \(report.format.rawValue)\(assurance)")
        } else {
            let first = report.primaryError.map { " — \($0.code.rawValue): \($0.message)" } ?? ""
            lines.append("REJECTED \(report.format.rawValue)\(assurance)\(first)")
        }
        let failed = report.checks.filter { $0.status == .fail }
        if !failed.isEmpty {
            lines.append("")
            lines.append("Failed checks:")
            for check in failed {
                lines.append("  ✗ \(check.id) [\(check.code?.rawValue ?? "")] \(check.detail)  (\(check.clause))")
            }
        }
        let warnings = report.checks.filter { $0.status == .warn }
        if !warnings.isEmpty {
            lines.append("")
            lines.append("Warnings:")
            for check in warnings { lines.append("  ! \(check.id): \(check.detail)") }
        }
        let passed = report.checks.filter { $0.status == .pass }.count
        let skipped = report.checks.filter { $0.status == .skip }.count
        lines.append("")
        lines.append("Checks: \(passed) passed, \(failed.count) failed, \(warnings.count) warnings, \(skipped) skipped")
        for document in report.documents {
            lines.append("")
            lines.append("Document \(document.docType)")
            lines.append("  issuer: \(document.issuer.documentSigner)" + (document.issuer.root.map { " ← \($0)" } ?? ""))
            if let anchor = document.issuer.anchor, anchor.source != nil || !anchor.selfSigned {
                var trust = anchor.source.map { "from \($0)" } ?? "a pinned certificate"
                if !anchor.selfSigned { trust += ", not a self-signed root" }
                if let next = anchor.listNextUpdate { trust += ", list next update \(RFC3339.format(next))" + (anchor.listStale ? " (STALE)" : "") }
                lines.append("  anchor: \(trust)")
            }
            lines.append("  valid:  \(document.validity.validFromAt) … \(document.validity.validUntilAt)")
            for nameSpace in document.elements.keys.sorted() {
                lines.append("  \(nameSpace)")
                for (identifier, element) in (document.elements[nameSpace] ?? [:]).sorted(by: { $0.key < $1.key }) {
                    var marks = element.intentToRetain == true ? "  [retain]" : ""
                    if element.deviceSigned { marks += "  [device-signed]" }
                    if let source = element.derivedFrom { marks += "  [derived from \(source)]" }
                    lines.append("    \(identifier): \(element.value.summary)\(marks)")
                }
            }
            if !document.missing.isEmpty {
                lines.append("  requested but not returned: \(document.missing.joined(separator: ", "))")
            }
        }
        return lines.map(TerminalText.escaped).joined(separator: "\n")
    }
}
