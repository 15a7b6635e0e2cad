/// Texts a format knows in advance (namespaces, document types, element identifiers, map keys). Reading a received
/// text that is one of them returns the stored String instead of a new one: no allocation, and copies of a literal
/// cost no reference counting. Only texts of 16 UTF-8 bytes or more are kept: a shorter String is stored inline, so
/// there is nothing to save.
public struct TextVocabulary: Sendable {
    /// The known texts by UTF-8 length (index 0 ..< 16 empty).
    private let byLength: [[String]]

    static let minimumLength = 16

    public init(_ texts: some Sequence<String>) {
        var byLength: [[String]] = []
        var seen = Set<String>()
        for text in texts where text.utf8.count >= Self.minimumLength && seen.insert(text).inserted {
            let length = text.utf8.count
            if byLength.count <= length { byLength.append(contentsOf: repeatElement([], count: length + 1 - byLength.count)) }
            byLength[length].append(text)
        }
        self.byLength = byLength
    }

    /// The known text whose UTF-8 bytes are `utf8`, or nil.
    func text(matching utf8: UnsafeBufferPointer<UInt8>) -> String? {
        guard utf8.count >= Self.minimumLength, utf8.count < byLength.count else { return nil }
        for candidate in byLength[utf8.count] {
            var candidate = candidate
            if candidate.withUTF8({ $0.sameBytes(as: utf8) }) { return candidate }
        }
        return nil
    }
}
