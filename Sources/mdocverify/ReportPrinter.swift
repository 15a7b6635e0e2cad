import CBOR
import Foundation
import Mdoc
import MdocModel
import Verifier

/// Prints a report and returns the exit status for its verdict.
enum ReportPrinter {
    /// Prints `report`; `defaultTrust` says no `--trust` was given, `offersTestKey` that the command has
    /// `--allow-test-key`. Hints (what to pass for a rejection a newcomer meets) follow the failed checks in the text
    /// report and go to stderr with `--json`, which stays the report.
    static func emit(_ report: VerificationReport, json: Bool, defaultTrust: Bool = false, offersTestKey: Bool = false) -> ExitStatus {
        let hints = hints(report, defaultTrust: defaultTrust, offersTestKey: offersTestKey)
        if json {
            print(report.json.serialized(pretty: true))
            for hint in hints { FileHandle.standardError.write(Data("hint: \(TerminalText.escaped(hint))\n".utf8)) }
        } else {
            print(text(report, hints: hints))
        }
        return report.verified ? .verified : .rejected
    }

    /// One line per rejection the command line can fix: the option to pass.
    static func hints(_ report: VerificationReport, defaultTrust: Bool, offersTestKey: Bool = false) -> [String] {
        let failed = report.checks.filter { $0.status == .fail }
        var hints: [String] = []
        if failed.contains(where: { $0.code == .envelopeTestKey }) {
            hints.append("the response is encrypted to Apple's published test key (iOS Simulator, Apple's sample): pass --allow-test-key "
                         + "to verify it in test mode (the report then says assurance: test)")
        }
        if offersTestKey, failed.contains(where: { $0.code == .issuerMockData }) {
            hints.append("mock data from a device with Apple's Wallet developer profile: pass --allow-test-key to verify it in test mode "
                         + "(the mock-data line then warns and the report says assurance: test)")
        }
        if defaultTrust, failed.contains(where: { $0.code == .issuerChainUntrusted }) {
            hints.append("no --trust was given, so the embedded production bundle was used; for responses from `mdocverify simulate` "
                         + "pass --trust <case>/iaca.pem")
        }
        return hints
    }

    /// Verdict, then failed checks with reasons, hints, warnings, and (when verified) the elements. Each line is
    /// escaped (`TerminalText`): details and element values carry the response's text, which must not drive the terminal.
    static func text(_ report: VerificationReport, hints: [String] = []) -> String {
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
        if !hints.isEmpty {
            lines.append("")
            for hint in hints { lines.append("Hint: \(hint)") }
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
