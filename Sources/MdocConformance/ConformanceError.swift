import Foundation
import MdocTesting

/// Why a conformance run cannot start: an unreadable corpus or profile, a bad option, a key that is not one. The
/// message says what to do; the cases' own failures are results, never this error.
public struct ConformanceError: Error, CustomStringConvertible, Sendable {
    /// One sentence naming the problem and what to do about it.
    public let description: String

    /// An error with `description` as its message.
    public init(_ description: String) { self.description = description }

    /// The PKI and seeded requests of `corpus`, or an error saying the kit could not build them.
    static func material(of corpus: ConformanceCorpus) throws(ConformanceError) -> ConformanceCorpus.Material {
        do {
            return try corpus.material()
        } catch {
            throw ConformanceError("the kit cannot build the corpus's test PKI: \(error)")
        }
    }

    /// The UTF-8 text of the file at `path`, refused past `maxBytes` (read no further) or when it is not UTF-8.
    static func readText(_ path: String, what: String, maxBytes: Int) throws(ConformanceError) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ConformanceError("cannot read \(what) at \(path)") }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: maxBytes + 1) ?? Data() else { throw ConformanceError("cannot read \(what) at \(path)") }
        guard data.count <= maxBytes else { throw ConformanceError("\(what) at \(path) is larger than \(maxBytes) bytes") }
        guard let text = String(validating: Array(data), as: UTF8.self) else { throw ConformanceError("\(what) at \(path) is not UTF-8 text") }
        return text
    }
}
