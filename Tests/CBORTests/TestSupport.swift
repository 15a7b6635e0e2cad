import Testing
@testable import CBOR

/// Bytes from hex; spaces and underscores are ignored ("82 01 02"). Test data only.
func hex(_ string: String) -> [UInt8] {
    let digits = string.filter { !$0.isWhitespace && $0 != "_" }.map { $0 }
    precondition(digits.count % 2 == 0, "odd hex length: \(string)")
    return stride(from: 0, to: digits.count, by: 2).map { i in
        guard let byte = UInt8(String(digits[i...i + 1]), radix: 16) else { preconditionFailure("bad hex: \(string)") }
        return byte
    }
}

/// Lowercase hex of bytes.
func hexString<S: Sequence<UInt8>>(_ bytes: S) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
}

/// Decodes hex input and returns the thrown CBORDecodingError, or nil if decoding succeeded.
func decodingError(_ hexInput: String, limits: CBORLimits = .default) -> CBORDecodingError? {
    decodingError(hex(hexInput), limits: limits)
}

func decodingError(_ bytes: [UInt8], limits: CBORLimits = .default) -> CBORDecodingError? {
    do {
        _ = try CBORDecoder.decode(bytes, limits: limits)
        return nil
    } catch let error as CBORDecodingError {
        return error
    } catch {
        Issue.record("unexpected error type: \(error)")
        return nil
    }
}

/// Deterministic PRNG (SplitMix64) for reproducible fuzz-style tests.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
