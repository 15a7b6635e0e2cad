import Foundation

/// One raw value: a scalar as text, a list of texts, or a list of objects of texts (e.g. `vicals: [{file, root}]`).
enum ConfigurationValue: Sendable, Equatable, Decodable {
    case scalar(String)
    case list([String])
    case objects([[String: String]])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .scalar(value ? "true" : "false")
        } else if let value = try? container.decode(Int.self) {
            self = .scalar(String(value))
        } else if let value = try? container.decode(Double.self) {
            self = .scalar(String(value))
        } else if let value = try? container.decode(String.self) {
            self = .scalar(value)
        } else if let values = try? container.decode([String].self) {
            self = .list(values)
        } else if let values = try? container.decode([[String: Scalar]].self) {
            self = .objects(values.map { $0.mapValues(\.text) })
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a string, number, boolean or list of strings")
        }
    }

    /// A scalar inside an object (`allowRollback: true`), kept as text like top-level scalars; a list of strings is
    /// joined with commas.
    struct Scalar: Decodable {
        let text: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Bool.self) {
                text = value ? "true" : "false"
            } else if let value = try? container.decode(Int.self) {
                text = String(value)
            } else if let values = try? container.decode([String].self) {
                // A list inside an object (`apiKeys: [{origins: [...]}]`), comma-joined like a list from the environment.
                text = values.joined(separator: ",")
            } else {
                text = try container.decode(String.self)
            }
        }
    }

    /// The objects of a list of objects, each key's value as text; nil for a scalar or a list of strings.
    var objectList: [[String: String]]? {
        if case .objects(let objects) = self { return objects }
        return nil
    }

    func text() throws(ConfigurationValueError) -> String {
        guard case .scalar(let text) = self else { throw ConfigurationValueError("must be a single value, not a list") }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// The text, nil when empty (an optional setting left unset).
    func optionalText() throws(ConfigurationValueError) -> String? {
        let text = try text()
        return text.isEmpty ? nil : text
    }

    func list() throws(ConfigurationValueError) -> [String] {
        switch self {
        case .objects: throw ConfigurationValueError("must be a list of strings")
        case .list(let values): return values
        case .scalar(let text):
            return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }

    func integer() throws(ConfigurationValueError) -> Int {
        guard let value = Int(try text()) else { throw ConfigurationValueError("must be an integer") }
        return value
    }

    /// A finite decimal number (a rate).
    func number() throws(ConfigurationValueError) -> Double {
        guard let value = Double(try text()), value.isFinite else { throw ConfigurationValueError("must be a number") }
        return value
    }

    func seconds() throws(ConfigurationValueError) -> TimeInterval {
        guard let value = Double(try text()), value.isFinite else { throw ConfigurationValueError("must be a number of seconds") }
        return value
    }

    /// One of an enumeration's raw values (profile, revocation policy, log level).
    func choice<Value: RawRepresentable & CaseIterable>(_ type: Value.Type) throws(ConfigurationValueError) -> Value
        where Value.RawValue == String {
        let text = try text()
        // YAML 1.1 reads an unquoted `off` or `on` as a boolean: a choice with such a value takes it back.
        let spelled = ["false": "off", "true": "on"][text.lowercased()]
        guard let value = Value(rawValue: text) ?? spelled.flatMap(Value.init(rawValue:)) else {
            throw ConfigurationValueError("must be one of \(Value.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }

    func bool() throws(ConfigurationValueError) -> Bool {
        switch try text().lowercased() {
        case "true", "1", "yes", "on": return true
        case "false", "0", "no", "off": return false
        default: throw ConfigurationValueError("must be true or false")
        }
    }
}

struct ConfigurationValueError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
