import Foundation

/// One raw value: a scalar as text or a list of texts.
enum ConfigurationValue: Sendable, Equatable, Decodable {
    case scalar(String)
    case list([String])

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
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a string, number, boolean or list of strings")
        }
    }

    func text() throws(ConfigurationValueError) -> String {
        guard case .scalar(let text) = self else { throw ConfigurationValueError("must be a single value, not a list") }
        return text.trimmingCharacters(in: .whitespaces)
    }

    func list() throws(ConfigurationValueError) -> [String] {
        switch self {
        case .list(let values): return values
        case .scalar(let text):
            return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
    }

    func integer() throws(ConfigurationValueError) -> Int {
        guard let value = Int(try text()) else { throw ConfigurationValueError("must be an integer") }
        return value
    }

    func seconds() throws(ConfigurationValueError) -> TimeInterval {
        guard let value = Double(try text()), value.isFinite else { throw ConfigurationValueError("must be a number of seconds") }
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
