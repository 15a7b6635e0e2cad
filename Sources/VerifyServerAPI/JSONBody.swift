import Foundation
import MdocModel

/// Decodes a request body that has already been read within the size limit. A failure is `input.malformed` naming
/// the offending field, never echoing its value.
package enum JSONBody {
    package static func decode<T: Decodable>(_ type: T.Type, json: Data) throws(VerificationError) -> T {
        do {
            return try JSONDecoder().decode(type, from: json)
        } catch let error as DecodingError {
            throw VerificationError(.inputMalformed, describe(error))
        } catch {
            throw VerificationError(.inputMalformed, "body is not valid JSON")
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context, _ last: (any CodingKey)? = nil) -> String {
            let keys = context.codingPath + (last.map { [$0] } ?? [])
            return keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
                .replacingOccurrences(of: ".[", with: "[")
        }
        switch error {
        case .keyNotFound(let key, let context): return "body is missing the field `\(path(context, key))`"
        case .typeMismatch(_, let context): return "body field `\(path(context))` has the wrong type"
        case .valueNotFound(_, let context): return "body field `\(path(context))` is null"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "body is not valid JSON" : "body field `\(path(context))` is invalid"
        @unknown default: return "body does not have the documented shape"
        }
    }
}
