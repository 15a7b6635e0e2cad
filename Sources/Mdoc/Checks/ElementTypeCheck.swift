import MdocModel
import MdocTrust
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
        // The namespace's table is looked up once per run of its elements (they are grouped by namespace).
        var current: (nameSpace: String, types: ElementTypeTable.NameSpaceTypes?)?
        // By index, reading fields in place (a copy of each entry would cost reference counts for all of them).
        for index in returnedElements.indices {
            let value = returnedElements[index].value
            if current?.nameSpace != returnedElements[index].nameSpace {
                let nameSpace = returnedElements[index].nameSpace
                current = (nameSpace, ElementTypeTable.types(nameSpace: nameSpace))
            }
            guard let type = current?.types?.type(returnedElements[index].element) else { continue }
            typed += 1
            var label: String { "\(returnedElements[index].nameSpace)/\(returnedElements[index].element)" }
            // Some issuers (the CMWallet test issuer among them) send a full-date without its tag 1004: the value is
            // still unambiguous, so the default profile accepts it with a warning; strict refuses it.
            if type.acceptsUntaggedFullDate(value), context.options.profile != .strict {
                untaggedDates.append(label)
                continue
            }
            if let problem = type.mismatch(value) {
                fail(.elementTypes, .elementTypeInvalid, "\(label) is \(problem)")
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
