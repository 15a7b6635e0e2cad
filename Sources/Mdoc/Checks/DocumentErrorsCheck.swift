import MdocModel
extension DocumentCheck {
    /// Per-document `errors` (elements the wallet could not return) are reported, not ignored.
    static let documentErrors = DocumentCheck(.documentErrors, stage: nil) { $0.checkDocumentErrors() }
}

extension DocumentVerification {
    mutating func checkDocumentErrors() {
        guard !document.errors.isEmpty else {
            pass(.documentErrors, "no element errors")
            return
        }
        let list = document.errors.map { "\($0.nameSpace)/\($0.element) (code \($0.code))" }.joined(separator: ", ")
        warn(.documentErrors, "the wallet did not return: \(list)")
    }
}
