extension DocumentCheck {
    /// Every returned element of a namespace the product knows has its data type (`ElementTypeTable`), so the relying
    /// party can use the value; unknown elements and namespaces pass untyped.
    static let elementTypes = DocumentCheck(.elementTypes, stage: nil) { $0.checkElementTypes() }
}

extension DocumentVerification {
    mutating func checkElementTypes() {
        var typed = 0
        var failed = false
        var untaggedDates: [String] = []
        for element in returnedElements {
            guard let type = ElementTypeTable.type(nameSpace: element.nameSpace, element: element.element) else { continue }
            typed += 1
            // Some issuers (the CMWallet test issuer among them) send a full-date without its tag 1004: the value is
            // still unambiguous, so the default profile accepts it with a warning; strict refuses it.
            if type.acceptsUntaggedFullDate(element.value), context.options.profile != .strict {
                untaggedDates.append("\(element.nameSpace)/\(element.element)")
                continue
            }
            if let problem = type.mismatch(element.value) {
                fail(.elementTypes, .elementTypeInvalid, "\(element.nameSpace)/\(element.element) is \(problem)")
                failed = true
            }
        }
        if !failed, !untaggedDates.isEmpty {
            warn(.elementTypes, "\(untaggedDates.joined(separator: ", ")) carry a YYYY-MM-DD text without tag 1004 (full-date); accepted")
        } else if !failed {
            pass(.elementTypes, "\(typed) element(s) of known namespaces have their data types")
        }
    }
}
