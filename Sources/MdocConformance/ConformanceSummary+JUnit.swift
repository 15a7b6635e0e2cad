import Foundation

extension ConformanceSummary {
    /// The report as JUnit XML: a test suite per format, failures and errors by case, not applicable cases skipped.
    public func junit() -> String {
        func escape(_ text: String) -> String {
            var out = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                case "\"": out += "&quot;"
                case "\n", "\t": out.unicodeScalars.append(scalar)
                default:
                    // XML 1.0 has no other control characters.
                    if scalar.value < 0x20 { out += "?" } else { out.unicodeScalars.append(scalar) }
                }
            }
            return out
        }
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
                     "<testsuites name=\"mdoc conformance: \(escape(target))\" tests=\"\(results.count)\" time=\"\(String(format: "%.3f", seconds))\">"]
        for format in formats {
            let mine = results.filter { $0.testCase.format == format }
            let failures = mine.filter { [.wronglyAccepted, .wronglyRejected, .wrongCode].contains($0.outcome) }.count
            let errors = mine.filter { $0.outcome == .error }.count
            let skipped = mine.filter { $0.outcome == .notApplicable }.count
            lines.append("  <testsuite name=\"\(escape(format))\" tests=\"\(mine.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\">")
            for result in mine {
                let head = "    <testcase classname=\"\(escape(format)).\(escape(result.testCase.kind))\" name=\"\(escape(result.testCase.id))\" time=\"\(String(format: "%.3f", result.seconds))\""
                let body = result.reason + (result.reproduce.map { "\nreproduce: \($0)" } ?? "")
                switch result.outcome {
                case .passed:
                    lines.append(head + "/>")
                case .notApplicable:
                    lines.append(head + "><skipped message=\"\(escape(result.reason))\"/></testcase>")
                case .error:
                    lines.append(head + "><error message=\"\(escape(result.reason))\">\(escape(body))</error></testcase>")
                default:
                    lines.append(head + "><failure type=\"\(escape(result.outcome.rawValue))\" message=\"\(escape(result.outcome.rawValue)): \(escape(result.reason))\">\(escape(body))</failure></testcase>")
                }
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }
}

