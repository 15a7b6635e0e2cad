import Foundation

/// Hex decoding for test inputs (whitespace ignored). Traps on malformed hex: vectors are trusted files.
func hex(_ string: some StringProtocol) -> [UInt8] {
    let digits = string.utf8.filter { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }
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

func hexString(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}

/// The repository root, found from this file's path (Tests/HPKETests/TestSupport.swift).
let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

func vectorText(_ relativePath: String) throws -> String {
    try String(contentsOf: repositoryRoot.appendingPathComponent("TestVectors/" + relativePath), encoding: .utf8)
}

/// The hex string following `label` on the line that starts with it (Apple's *_validation.txt files).
func hexField(_ text: String, label: String) -> [UInt8]? {
    for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix(label) {
        let rest = line.dropFirst(label.count)
        let digits = rest.filter { $0.isHexDigit }
        return hex(String(digits))
    }
    return nil
}

/// Index just past the first occurrence of `marker` in `bytes`.
func indexAfter(_ marker: [UInt8], in bytes: [UInt8]) -> Int? {
    guard !marker.isEmpty, marker.count <= bytes.count else { return nil }
    return bytes.withUnsafeBufferPointer { haystack in
        marker.withUnsafeBufferPointer { needle in
            for start in 0...(haystack.count - needle.count)
            where haystack[start] == needle[0] && memcmp(haystack.baseAddress! + start, needle.baseAddress!, needle.count) == 0 {
                return start + needle.count
            }
            return nil
        }
    }
}
