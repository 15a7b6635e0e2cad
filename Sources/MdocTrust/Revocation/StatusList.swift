import CBOR
import MdocModel

/// An inflated Token Status List (draft-ietf-oauth-status-list §4).
///
/// Each entry takes `bits` bits (1, 2, 4 or 8), packed from the least significant bit: status i lives in byte
/// i·bits/8 at bit offset (i mod (8/bits))·bits.
public struct StatusList: Sendable, Equatable {
    /// Bits per entry: 1, 2, 4 or 8.
    public let bits: Int
    /// The inflated list.
    public let bytes: [UInt8]

    /// Creates a list from its inflated bytes.
    ///
    /// - Throws: `status.invalid` when `bits` is not 1, 2, 4 or 8.
    public init(bits: Int, bytes: [UInt8]) throws(VerificationError) {
        guard [1, 2, 4, 8].contains(bits) else { throw VerificationError(.statusInvalid, "status list bits is \(bits); 1, 2, 4 or 8 expected") }
        self.bits = bits
        self.bytes = bytes
    }

    /// Parses and inflates a `status_list` claim.
    ///
    /// The claim is `{"bits": uint, "lst": bstr}` with `lst` zlib-compressed; inflating past `limit` bytes is refused.
    ///
    /// - Throws: `status.invalid` when the claim has another shape, `bits` is not 1, 2, 4 or 8, `lst` is not zlib
    ///   data, or it inflates past `limit` bytes.
    public init(decoding item: CBORItem, limit: Int) throws(VerificationError) {
        guard let bits = item["bits"]?.uint, bits <= 8, let compressed = item["lst"]?.bytes else {
            throw VerificationError(.statusInvalid, "status_list is not {\"bits\": uint, \"lst\": bstr}")
        }
        let inflated: [UInt8]
        do {
            inflated = try Zlib.inflate(Array(compressed), limit: limit)
        } catch {
            switch error {
            case .tooLarge(let limit): throw VerificationError(.statusInvalid, "status_list lst inflates past \(limit) bytes (refused)")
            case .malformed(let reason): throw VerificationError(.statusInvalid, "status_list lst is not zlib data: \(reason)")
            }
        }
        try self.init(bits: Int(bits), bytes: inflated)
    }

    /// How many entries the list holds.
    public var count: Int { bytes.count * 8 / bits }

    /// The status at `index`, nil outside the list.
    public func status(at index: UInt64) -> UInt8? {
        guard index < UInt64(count) else { return nil }
        let perByte = 8 / bits
        let byte = bytes[Int(index / UInt64(perByte))]
        let shift = Int(index % UInt64(perByte)) * bits
        return (byte >> UInt8(shift)) & UInt8((1 << bits) - 1)
    }
}
