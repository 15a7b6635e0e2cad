extension DocumentCheck {
    /// Every returned element of a namespace the product knows has its data type (`ElementTypeTable`), so the relying
    /// party can use the value; unknown elements and namespaces pass untyped.
    static let elementTypes = DocumentCheck(.elementTypes, stage: nil) { $0.checkElementTypes() }
}

extension DocumentVerification {
    mutating func checkElementTypes() {
        var typed = 0
        var failed = false
        for element in returnedElements {
            guard let type = ElementTypeTable.type(nameSpace: element.nameSpace, element: element.element) else { continue }
            typed += 1
            if let problem = type.mismatch(element.value) {
                fail(.elementTypes, .elementTypeInvalid, "\(element.nameSpace)/\(element.element) is \(problem)")
                failed = true
            }
        }
        if !failed {
            pass(.elementTypes, "\(typed) element(s) of known namespaces have their data types")
        }
    }
}
