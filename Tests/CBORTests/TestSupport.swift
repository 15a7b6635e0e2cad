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

