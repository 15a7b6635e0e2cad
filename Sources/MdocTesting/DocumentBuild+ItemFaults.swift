import CBOR
import Mdoc

extension DocumentBuild {
    /// Faults on the disclosed IssuerSignedItems. Each throws when the disclosure leaves it nothing to act on.
    mutating func applyItemFaults(_ nameSpaces: inout [NameSpaceItems]) throws {
        if faults.contains(.tamperedElementValue) {
            // issuing_country / issuing_jurisdiction are also compared with the certificate: leave them alone so
            // that only the digest check fails.
            let contentChecked: Set<String> = ["issuing_country", "issuing_jurisdiction"]
            guard let (n, i) = firstDisclosed(nameSpaces, where: { !($0.nameSpace == NameSpace.mDL && contentChecked.contains($0.identifier)) })
            else { throw SimulationError.faultNotApplicable(.tamperedElementValue, "no disclosed element to tamper with") }
            let original = nameSpaces[n].disclosed[i]
            var element = original.element
            element.value = Self.tampered(element.value)
            nameSpaces[n].disclosed[i] = item(element, digestID: original.digestID, salt: original.salt)
        }
        if faults.contains(.missingDigestID) {
            guard let n = nameSpaces.lastIndex(where: { !$0.disclosed.isEmpty }), let last = nameSpaces[n].disclosed.last else {
                throw SimulationError.faultNotApplicable(.missingDigestID, "no disclosed element")
            }
            omittedDigest = (nameSpaces[n].name, last.digestID)
        }
        if faults.contains(.duplicateItem) {
            guard let n = nameSpaces.firstIndex(where: { !$0.disclosed.isEmpty }) else {
                throw SimulationError.faultNotApplicable(.duplicateItem, "no disclosed element")
            }
            nameSpaces[n].disclosed.append(nameSpaces[n].disclosed[0])
        }
        if faults.contains(.duplicateElement) {
            guard let n = nameSpaces.firstIndex(where: { !$0.disclosed.isEmpty }) else {
                throw SimulationError.faultNotApplicable(.duplicateElement, "no disclosed element")
            }
            // The same element with another value, under a digestID no other item has, in the MSO like the first.
            let first = nameSpaces[n].disclosed[0]
            var element = first.element
            element.value = Self.tampered(element.value)
            let digestID = (nameSpaces[n].all.map(\.digestID) + nameSpaces[n].decoys.map(\.id)).max().map { $0 + 1 } ?? 0
            let second = item(element, digestID: digestID, salt: seed.bytes("duplicate-element", count: options.saltLength))
            nameSpaces[n].all.append(second)
            nameSpaces[n].disclosed.append(second)
        }
        if faults.contains(.duplicateDigestID) {
            guard let n = nameSpaces.firstIndex(where: { !$0.disclosed.isEmpty }) else {
                throw SimulationError.faultNotApplicable(.duplicateDigestID, "no disclosed element")
            }
            let first = nameSpaces[n].disclosed[0]
            if nameSpaces[n].disclosed.count >= 2 {
                // A second element claims the first one's digest ID.
                let second = nameSpaces[n].disclosed[1]
                nameSpaces[n].disclosed[1] = item(second.element, digestID: first.digestID, salt: second.salt)
            } else {
                nameSpaces[n].disclosed.append(first)
            }
        }
    }

    private func firstDisclosed(_ nameSpaces: [NameSpaceItems], where accept: (ElementID) -> Bool) -> (Int, Int)? {
        for (n, nameSpace) in nameSpaces.enumerated() {
            if let i = nameSpace.disclosed.firstIndex(where: { accept($0.element.id) }) { return (n, i) }
        }
        return nil
    }

    /// A different value of the same shape: the edit an attacker would make (older birth date, flipped age flag…).
    static func tampered(_ value: CBORValue) -> CBORValue {
        switch value {
        case .text(let text): return .text(text == "Smith" ? "Jones" : "Smith")
        case .bool(let flag): return .bool(!flag)
        case .unsigned(let number): return .unsigned(number &+ 1)
        case .bytes(let bytes): return .bytes(bytes.isEmpty ? [0] : bytes.dropLast() + [bytes[bytes.count - 1] ^ 0x01])
        case .tagged(1004, .text(let date)): return .tagged(1004, .text(date == "1970-01-01" ? "1970-01-02" : "1970-01-01"))
        default: return .text("tampered")
        }
    }
}
