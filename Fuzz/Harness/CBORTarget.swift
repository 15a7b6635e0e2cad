import CBOR
import TestSupport

extension FuzzTargets {
    /// CBOR decoding with the production limits, then three differential checks on whatever decodes: each item's
    /// byte range lies inside its parent's in order, the diagnostic printer and tag-24 decoder accept the tree, and
    /// the deterministic encoder is a fixed point (decode → encode → decode → encode gives the same bytes), which is
    /// how "re-encoding canonical input reproduces it" is checked for every canonical form the fuzzer reaches.
    static let cbor = FuzzTarget("cbor", maxLength: 64 << 10,
                                 "CBORDecoder.decode (walker + tree), byte ranges, diagnostic notation, tag 24, encoder round trip",
                                 seeds: cborSeeds) { input in
        guard let item = try? CBORDecoder.decode(input, limits: .default) else { return }
        Invariant.require(item.byteRange == 0 ..< input.count, "the top item does not span the input")
        checkRanges(item, budget: 64)
        _ = item.diagnostic(expandEmbedded: true)
        let encoded = CBOREncoder.encode(item.toValue())
        guard let again = try? CBORDecoder.decode(encoded, limits: .default) else {
            Invariant.require(false, "the encoder's output does not decode")
            return
        }
        Invariant.require(CBOREncoder.encode(again.toValue()) == encoded, "encoding is not a fixed point")
    }

    /// Children sit inside their parent, in order, without overlap; tag-24 contents decode within their own range.
    private static func checkRanges(_ item: CBORItem, budget: Int) {
        var children: [CBORItem] = []
        switch item.value {
        case .array(let items): children = Array(items)
        case .map(let entries): children = entries.flatMap { [$0.key, $0.value] }
        case .tagged(let tag, let inner):
            children = [inner]
            if tag == 24, budget > 0, let embedded = try? item.decodeEmbedded(limits: .default) {
                Invariant.require(embedded.item.byteRange == embedded.inner.indices, "tag 24 contents do not span their bstr")
                checkRanges(embedded.item, budget: budget - 1)
            }
        default: return
        }
        var previousEnd = item.byteRange.lowerBound
        for child in children {
            Invariant.require(child.byteRange.lowerBound >= previousEnd && child.byteRange.upperBound <= item.byteRange.upperBound,
                              "a child's byte range is outside its parent's or overlaps its sibling")
            previousEnd = child.byteRange.upperBound
            checkRanges(child, budget: budget - 1)
        }
    }

    static func cborSeeds() throws -> [[UInt8]] {
        [AppleSampleVector.plaintext, AppleSampleVector.envelope, AnnexDVector.deviceResponse, AnnexDVector.deviceRequest,
         AnnexDVector.sessionTranscriptBytes,
         // RFC 8949 Appendix A corner cases: indefinite lengths, floats, big tags, simple values.
         [0x9F, 0x01, 0x82, 0x02, 0x03, 0x9F, 0x04, 0x05, 0xFF, 0xFF], [0x5F, 0x42, 0x01, 0x02, 0x43, 0x03, 0x04, 0x05, 0xFF],
         [0xF9, 0x7E, 0x00], [0xFB, 0x7E, 0x37, 0xE4, 0x3C, 0x88, 0x00, 0x75, 0x9C], [0xC1, 0x1A, 0x51, 0x4B, 0x67, 0xB0],
         [0xD8, 0x18, 0x45, 0x64, 0x49, 0x45, 0x54, 0x46], [0xF8, 0xFF], [0xBF, 0x61, 0x61, 0x01, 0xFF]]
    }
}
