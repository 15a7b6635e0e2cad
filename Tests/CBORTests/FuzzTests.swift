import TestSupport
import Testing
@testable import CBOR

/// Bounded, deterministic mutation tests: decoding must either succeed or throw
/// CBORDecodingError, never crash, and successful results must be self-consistent.
@Suite("Mutation fuzzing")
struct FuzzTests {
    /// A small DeviceResponse-like structure: nested maps, tag-24 items, COSE-like arrays,
    /// a non-minimal map head and an indefinite string spliced in.
    static let sample: [UInt8] = {
        func issuerSignedItem(_ id: UInt64, _ name: String, _ value: CBORValue) -> CBORValue {
            .embedded(.map([
                (.text("digestID"), .unsigned(id)),
                (.text("random"), .bytes((0..<16).map { UInt8($0) &* 7 &+ UInt8(id) })),
                (.text("elementIdentifier"), .text(name)),
                (.text("elementValue"), value),
            ]))
        }
        let issuerAuth: CBORValue = .array([
            .bytes(CBOREncoder.encode(.map([(.int(1), .int(-7))]))),
            .map([(.int(33), .bytes([UInt8](repeating: 0x30, count: 12)))]),
            .embedded(.map([(.text("docType"), .text("org.iso.18013.5.1.mDL")), (.text("digestAlgorithm"), .text("SHA-256"))])),
            .bytes([UInt8](repeating: 0x5A, count: 16)),
        ])
        let document: CBORValue = .map([
            (.text("docType"), .text("org.iso.18013.5.1.mDL")),
            (.text("issuerSigned"), .map([
                (.text("nameSpaces"), .map([(.text("org.iso.18013.5.1"), .array([
                    issuerSignedItem(0, "family_name", .text("Müller")),
                    issuerSignedItem(1, "birth_date", .tagged(1004, .text("1990-01-01"))),
                    issuerSignedItem(2, "age_over_18", .bool(true)),
                ]))])),
                (.text("issuerAuth"), issuerAuth),
            ])),
            (.text("deviceSigned"), .map([
                (.text("nameSpaces"), .embedded(.map([]))),
                (.text("deviceAuth"), .map([(.text("deviceSignature"), .array([.bytes([0xA0]), .map([]), .null, .bytes([1, 2, 3])]))])),
            ])),
            (.text("extra"), .encoded(hex("b9 0002 6161 1801 6162 7f 6161 62c3bc ff"))),
            (.text("numbers"), .array([.float(1.5), .float(-4.1), .int(-1000), .simple(16), .undefined])),
        ])
        return CBOREncoder.encode(.map([
            (.text("version"), .text("1.0")),
            (.text("documents"), .array([document])),
            (.text("status"), .unsigned(0)),
        ]))
    }()

    /// Decodes and, on success, checks ranges and walks embedded items.
    /// `thorough` adds diagnostic output and a decode → encode → decode round trip.
    private func exercise(_ bytes: [UInt8], thorough: Bool = false) {
        do {
            let item = try CBORDecoder.decode(bytes)
            // Plain checks (not #expect) keep thousands of iterations fast.
            if item.byteRange != 0..<bytes.count || !rangesAreConsistent(item, embeddingBudget: 4) {
                Issue.record("inconsistent ranges for \(hexString(bytes))")
            }
            if thorough {
                _ = item.diagnostic()
                let value = item.toValue()
                let reencoded = CBOREncoder.encode(value)
                if (try? CBORDecoder.decode(reencoded).toValue()) != value {
                    Issue.record("round trip changed \(hexString(bytes))")
                }
            }
        } catch is CBORDecodingError {
            // Expected for most mutations.
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    /// Children lie inside their parent, after its head and back to back; embedded items
    /// decode or fail cleanly.
    private func rangesAreConsistent(_ item: CBORItem, embeddingBudget: Int) -> Bool {
        var children: [CBORItem] = []
        switch item.value {
        case .array(let items): children = Array(items)
        case .map(let entries): children = entries.flatMap { [$0.key, $0.value] }
        case .tagged(let tag, let content):
            children = [content]
            if tag == 24, embeddingBudget > 0, let embedded = try? item.decodeEmbedded() {
                guard embedded.tagged == item.raw,
                      rangesAreConsistent(embedded.item, embeddingBudget: embeddingBudget - 1) else { return false }
            }
        default: break
        }
        var cursor: Int?
        for child in children {
            if let cursor {
                guard child.byteRange.lowerBound == cursor else { return false }
            } else {
                guard child.byteRange.lowerBound > item.byteRange.lowerBound else { return false }
            }
            guard child.byteRange.upperBound <= item.byteRange.upperBound,
                  rangesAreConsistent(child, embeddingBudget: embeddingBudget) else { return false }
            cursor = child.byteRange.upperBound
        }
        return true
    }

    @Test func sampleIsRealisticAndDecodes() throws {
        let sample = Self.sample
        #expect(sample.count > 300)
        let item = try CBORDecoder.decode(sample)
        let document = try #require(item["documents"]?.array?.first)
        let items = try #require(document["issuerSigned"]?["nameSpaces"]?["org.iso.18013.5.1"]?.array)
        #expect(items.count == 3)
        let first = try items[0].decodeEmbedded()
        #expect(first.item["elementValue"]?.text == "Müller")
        #expect(first.item["digestID"]?.uint == 0)
        #expect(document["extra"]?["a"]?.uint == 1)
        #expect(document["extra"]?["b"]?.text == "aü")
        #expect(rangesAreConsistent(item, embeddingBudget: 4))
    }

    @Test func everyTruncationFails() {
        let sample = Self.sample
        for length in 0..<sample.count {
            let error = decodingError(Array(sample[..<length]))
            #expect(error?.kind == .truncated, "prefix length \(length)")
        }
    }

    @Test func everySingleBitFlipIsHandled() {
        var bytes = Self.sample
        for index in bytes.indices {
            for bit in 0..<8 {
                bytes[index] ^= 1 << bit
                exercise(bytes)
                bytes[index] ^= 1 << bit
            }
        }
    }

    @Test func everyByteReplacedWithInterestingValues() {
        var bytes = Self.sample
        let interesting: [UInt8] = [0x00, 0x1B, 0x1F, 0x5B, 0x7F, 0x9F, 0xBB, 0xD8, 0xF8, 0xFF]
        for index in bytes.indices {
            let original = bytes[index]
            for value in interesting {
                bytes[index] = value
                exercise(bytes)
            }
            bytes[index] = original
        }
    }

    @Test func randomMultiByteMutations() {
        var rng = SplitMix64(seed: 0x18013_5)
        let sample = Self.sample
        for _ in 0..<3000 {
            var bytes = sample
            for _ in 0..<Int.random(in: 1...6, using: &rng) {
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: bytes[Int.random(in: bytes.indices, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                case 1: bytes.insert(UInt8.random(in: 0...255, using: &rng), at: Int.random(in: 0...bytes.count, using: &rng))
                case 2: if bytes.count > 1 { bytes.remove(at: Int.random(in: bytes.indices, using: &rng)) }
                default:
                    let start = Int.random(in: bytes.indices, using: &rng)
                    let end = min(bytes.count, start + Int.random(in: 1...8, using: &rng))
                    bytes.insert(contentsOf: bytes[start..<end], at: Int.random(in: 0...bytes.count, using: &rng))
                }
            }
            exercise(bytes, thorough: true)
        }
    }

    @Test func randomShortInputs() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<5000 {
            let bytes = (0..<Int.random(in: 0...24, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            exercise(bytes, thorough: true)
        }
    }
}
