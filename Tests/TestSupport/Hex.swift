import Foundation

/// Bytes from hex test data; whitespace and underscores are ignored ("82 01 02"). Traps on malformed hex:
/// vectors are trusted files.
public func hex(_ string: some StringProtocol) -> [UInt8] {
    let digits = string.utf8.filter { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0x5F) }
    precondition(digits.count % 2 == 0, "odd-length hex")
    var bytes = [UInt8]()
    bytes.reserveCapacity(digits.count / 2)
    var high: UInt8 = 0
    for (index, digit) in digits.enumerated() {
        let value: UInt8
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): value = digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): value = digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): value = digit - UInt8(ascii: "A") + 10
        default: preconditionFailure("not a hex digit")
        }
        if index % 2 == 0 { high = value } else { bytes.append(high << 4 | value) }
    }
    return bytes
}

/// Lowercase hex of bytes.
public func hexString(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
}

/// The hex string following `label` on the line that starts with it (Apple's *_validation.txt files).
public func hexField(_ text: String, label: String) -> [UInt8]? {
    for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix(label) {
        return hex(String(line.dropFirst(label.count).filter { $0.isHexDigit }))
    }
    return nil
}

/// Index just past the first occurrence of `marker` in `bytes`.
public func indexAfter(_ marker: [UInt8], in bytes: [UInt8]) -> Int? {
    guard !marker.isEmpty, marker.count <= bytes.count else { return nil }
    for start in 0...(bytes.count - marker.count) where bytes[start ..< start + marker.count].elementsEqual(marker) {
        return start + marker.count
    }
    return nil
}
