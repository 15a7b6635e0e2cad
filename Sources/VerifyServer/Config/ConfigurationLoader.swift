import CBOR
import Foundation
import Mdoc
import MdocModel
import Yams

/// Reads the server configuration from its defaults, a config file and the environment.
///
/// Later sources win: defaults, then the config file (JSON, or YAML for .yaml/.yml), then `VERIFY_SERVER_*`
/// environment variables. Collects every problem instead of stopping at the first.
public enum ConfigurationLoader {
    /// The environment variable naming the config file when `--config` is not given.
    public static let fileVariable = "VERIFY_SERVER_CONFIG"

    /// Reads the configuration and checks it.
    ///
    /// `file` is the config file's path; nil falls back to the `VERIFY_SERVER_CONFIG` variable of `environment`,
    /// and no file at all is allowed. Throws `ConfigurationProblems` with every problem found, including those
    /// `ServerConfiguration.problems` lists.
    public static func load(file: String?, environment: [String: String]) throws(ConfigurationProblems) -> ServerConfiguration {
        let (configuration, problems) = read(file: file, environment: environment)
        let all = problems + configuration.problems
        guard all.isEmpty else { throw ConfigurationProblems(all) }
        return configuration
    }

    /// Returns the configuration as read, and the problems met reading it (unreadable file, unknown key, bad value).
    ///
    /// `ServerConfiguration.problems` lists the other checks that need no files, and
    /// `VerifierRuntime.load(_:earlierProblems:fetcher:)` adds those that need the key and certificate files.
    public static func read(file: String?, environment: [String: String]) -> (ServerConfiguration, [String]) {
        var configuration = ServerConfiguration()
        var problems: [String] = []
        var values: [(source: String, key: ConfigurationKey, value: ConfigurationValue)] = []

        if let file = file ?? environment[fileVariable], !file.isEmpty {
            do {
                let entries = try readFile(file)
                for (name, value) in entries.sorted(by: { $0.key < $1.key }) {
                    if ConfigurationKey.environmentOnly.contains(name) {
                        problems.append("\(file): `\(name)` is a secret: set it in the environment (VERIFY_SERVER_STORE_PASSWORD) "
                            + "or in a file named by storePasswordFile, not in the config file")
                        continue
                    }
                    guard let key = ConfigurationKey.all.first(where: { $0.name == name }) else {
                        problems.append("\(file): unknown key `\(name)` (known: \(ConfigurationKey.all.map(\.name).joined(separator: ", ")))")
                        continue
                    }
                    values.append(("\(file): \(name)", key, value))
                }
            } catch {
                problems.append(error.message)
            }
        }
        for key in ConfigurationKey.all {
            if let text = environment[key.environmentName] {
                values.append((key.environmentName, key, .scalar(text)))
            }
        }
        for (source, key, value) in values {
            do {
                try key.apply(&configuration, value)
            } catch let error as ConfigurationValueError {
                problems.append("\(source) \(error.message)")
            } catch {
                problems.append("\(source): \(error)")
            }
        }
        return (configuration, problems)
    }

    /// The `VERIFY_SERVER_*` variables of `environment` that name no configuration key (nor the config file), sorted:
    /// a misspelt variable would otherwise be ignored without a word. Only names: their values may be secrets.
    public static func unknownVariables(in environment: [String: String]) -> [String] {
        let known = Set(ConfigurationKey.all.map(\.environmentName)).union([fileVariable])
        return environment.keys.filter { $0.hasPrefix("VERIFY_SERVER_") && !known.contains($0) }.sorted()
    }

    /// One warning per unknown `VERIFY_SERVER_*` variable: its name (escaped), the variable it may have meant, never
    /// its value.
    public static func unknownVariableWarnings(in environment: [String: String]) -> [String] {
        unknownVariables(in: environment).map { name in
            let plain = name.utf8.count <= 64 && name.utf8.allSatisfy { $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0)
                || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
            let quoted = plain ? name : TerminalText.escaped(InputQuote.short(name))
            let hint = closestVariable(to: name).map { "; did you mean \($0)?" } ?? ""
            return "environment variable \(quoted) is not a configuration setting and is ignored\(hint)"
        }
    }

    /// The known variable `name` spells with other underscores or case (VERIFY_SERVER_LOGLEVEL → …_LOG_LEVEL).
    static func closestVariable(to name: String) -> String? {
        func folded(_ text: String) -> String { text.uppercased().filter { $0 != "_" } }
        let target = folded(name)
        return ConfigurationKey.all.map(\.environmentName).first { folded($0) == target }
    }

    static func readFile(_ path: String) throws(ConfigurationValueError) -> [String: ConfigurationValue] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationValueError("config file \(path) cannot be read")
        }
        let isYAML = path.hasSuffix(".yaml") || path.hasSuffix(".yml")
        do {
            if isYAML {
                return try YAMLDecoder().decode([String: ConfigurationValue].self, from: data)
            }
            return try JSONDecoder().decode([String: ConfigurationValue].self, from: data)
        } catch {
            throw ConfigurationValueError("config file \(path) is not a flat \(isYAML ? "YAML" : "JSON") object of known keys: \(error)")
        }
    }
}
