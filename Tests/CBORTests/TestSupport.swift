import Testing
import TestSupport
@testable import CBOR

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
