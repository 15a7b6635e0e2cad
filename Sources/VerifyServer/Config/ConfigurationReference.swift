import Foundation

/// The configuration reference (docs/configuration.md), generated from `ConfigurationKey.all`: every key, its
/// environment variable, its default as `ServerConfiguration()` holds it, and its description.
///
/// `verify-server --print-config-reference > docs/configuration.md` regenerates the file; a test keeps the committed
/// file equal to this output.
public enum ConfigurationReference {
    /// The command that regenerates docs/configuration.md.
    public static let command = "swift run verify-server --print-config-reference > docs/configuration.md"

    /// The keys without a description (a test requires none).
    public static var undescribedKeys: [String] { ConfigurationKey.all.filter { $0.summary.isEmpty }.map(\.name) }

    /// The reference as Markdown.
    public static var markdown: String {
        let defaults = ServerConfiguration()
        var out = """
            # verify-server configuration reference

            <!-- Generated from the code (ConfigurationKey.all); do not edit. Regenerate with:
                 \(command) -->

            `verify-server` reads a JSON or YAML file (`--config FILE`, or the `\(ConfigurationLoader.fileVariable)` \
            environment variable), then `VERIFY_SERVER_*` environment variables, which win. In the environment a list \
            is comma-separated. docs/verify-server.example.yaml is an annotated example; \
            `verify-server --check-config [--connect]` checks a configuration.

            | Key | Environment variable | Default | Description |
            | --- | --- | --- | --- |

            """
        for key in ConfigurationKey.all {
            let name = ConfigurationKey.environmentOnly.contains(key.name) ? "(environment only)" : "`\(key.name)`"
            out += "| \(name) | `\(key.environmentName)` | \(cell(format(key.defaultValue(defaults)))) | \(cell(key.summary)) |\n"
        }
        return out
    }

    /// A value as the reference shows it: "(none)" for nil, empty text or an empty list.
    static func format(_ value: Any?) -> String {
        guard let value else { return "(none)" }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            return mirror.children.first.map { format($0.value) } ?? "(none)"
        }
        switch value {
        case let text as String: return text.isEmpty ? "(none)" : "`\(text)`"
        case let flag as Bool: return "`\(flag)`"
        case let number as Int: return "`\(number)`"
        case let number as Double: return number == number.rounded() && abs(number) < 1e15 ? "`\(Int(number))`" : "`\(number)`"
        case let location as StoreLocation: return "`\(location.redacted)`"
        case let list as [Any]: return list.isEmpty ? "(none)" : list.map { format($0) }.joined(separator: ", ")
        case let choice as any RawRepresentable: return format(choice.rawValue)
        default: return "`\(value)`"
        }
    }

    /// Text safe inside a Markdown table cell.
    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
