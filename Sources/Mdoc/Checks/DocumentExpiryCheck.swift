import CBOR
import Foundation
import MdocModel

extension DocumentCheck {
    /// A returned `expiry_date` that has passed at the verification time is reported as a warning: the MSO may still be
    /// valid (issuers sign MSOs for days, documents last years), so the relying party decides, but never without
    /// being told. Absent or unreadable dates are skipped (`element.types` reports a wrong type).
    static let documentExpiry = DocumentCheck(.elementDocumentExpired, stage: nil) { $0.checkDocumentExpiry() }
}

extension DocumentVerification {
    /// The namespaces whose `expiry_date` element is the document's own expiry (ISO/IEC 18013-5, ISO/IEC 23220-2).
    static let expiryNameSpaces: Set<String> = ["org.iso.18013.5.1", "org.iso.23220.1"]

    mutating func checkDocumentExpiry() {
        let id = CheckID.elementDocumentExpired
        guard let index = returnedElements.firstIndex(where: {
            $0.element == "expiry_date" && !$0.deviceSigned && Self.expiryNameSpaces.contains($0.nameSpace)
        })
        else {
            skip(id, "no expiry_date element was returned")
            return
        }
        guard let (year, month, day) = Self.fullDate(returnedElements[index].value) else {
            skip(id, "the returned expiry_date is not a date")
            return
        }
        let expiryDay = RFC3339.daysFromCivil(year: year, month: month, day: day)
        let today = Int((context.time.timeIntervalSince1970 / 86_400).rounded(.down))
        func digits(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
        }
        let date = digits(year, 4) + "-" + digits(month, 2) + "-" + digits(day, 2)
        // The document is valid through its expiry date.
        if expiryDay < today {
            warn(id, "the document's expiry_date \(date) is before the verification time \(RFC3339.format(context.time)): "
                 + "the document itself has expired, although its MSO is valid; decide whether an expired document is acceptable")
        } else {
            pass(id, "expiry_date \(date) has not passed")
        }
    }

    /// A full-date (tag 1004 or untagged text) or a tdate (tag 0), as year, month and day.
    static func fullDate(_ value: CBORItem) -> (Int, Int, Int)? {
        var item = value
        if let (tag, inner) = value.tag {
            guard tag == 1004 || tag == 0 else { return nil }
            item = inner
        }
        guard let text = item.text else { return nil }
        return RFC3339.parseFullDate(String(text.prefix(10)))
    }
}
