extension DocumentVerification {
    /// Per-document `errors` (elements the wallet could not return) are reported, not ignored.
    mutating func checkDocumentErrors() {
        let clause = "ISO/IEC 18013-5 §8.3.2.1.2.2 (Document errors, Table 9)"
        guard !document.errors.isEmpty else { return }
        let list = document.errors.map { "\($0.nameSpace)/\($0.element) (code \($0.code))" }.joined(separator: ", ")
        warn("document.errors", "the wallet did not return: \(list)", clause: clause)
    }
}
