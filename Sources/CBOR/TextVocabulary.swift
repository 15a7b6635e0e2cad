#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Texts a format knows in advance (namespaces, document types, element identifiers, map keys). Given to the decoder
/// (`CBORDecoder.Options.vocabulary`), it makes reading a received text that is one of them return the stored String
/// instead of a new one: no allocation, and no buffer to free when the response is dropped. Only texts of 16 UTF-8
/// bytes or more are kept: a shorter String is stored inline, so there is nothing to save.
///
/// A class, so that every table decoded with it holds one reference.
public final class TextVocabulary: Sendable {
    /// The UTF-8 bytes of every known text, one after another, shorter texts first. Flat arrays of plain values, so
    /// that a lookup compares bytes without touching a String.
    private let bytes: [UInt8]
    /// Per known text, in `bytes` order: where its bytes start, and the String it is.
    private let starts: [Int]
    private let texts: [String]
    /// `firstOfLength[n] ..< firstOfLength[n + 1]`: the known texts of n bytes.
    private let firstOfLength: [Int]

    static let minimumLength = 16

    /// A vocabulary of `texts`; repeats and texts under 16 UTF-8 bytes are left out.
    public init(_ texts: some Sequence<String>) {
        var seen = Set<String>()
        let kept = texts.filter { $0.utf8.count >= Self.minimumLength && seen.insert($0).inserted }
            .sorted { $0.utf8.count < $1.utf8.count }
        var bytes: [UInt8] = [], starts: [Int] = [], firstOfLength = [0]
        for text in kept {
            while firstOfLength.count <= text.utf8.count { firstOfLength.append(starts.count) }
            starts.append(bytes.count)
            bytes.append(contentsOf: text.utf8)
        }
        firstOfLength.append(starts.count)
        (self.bytes, self.starts, self.texts, self.firstOfLength) = (bytes, starts, kept, firstOfLength)
    }

    /// The known text whose UTF-8 bytes are `utf8`, or nil.
    func text(matching utf8: UnsafeBufferPointer<UInt8>) -> String? {
        let length = utf8.count
        guard length >= Self.minimumLength, length + 1 < firstOfLength.count, let received = utf8.baseAddress else { return nil }
        let candidates = firstOfLength[length] ..< firstOfLength[length + 1]
        guard !candidates.isEmpty else { return nil }
        var match: Int?
        bytes.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return }
            for candidate in candidates where memcmp(base + starts[candidate], received, length) == 0 {
                match = candidate
                return
            }
        }
        guard let match else { return nil }
        return texts[match]
    }
}
