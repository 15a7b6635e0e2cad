import CBOR
import CryptoCore
import CZlib
import Foundation
@testable import Mdoc
@testable import MdocModel
@testable import MdocTrust
import Testing
import TestSupport

/// The IETF Token Status List draft's own vectors (TestVectors/token-status-list, with provenance), and the
/// decompression ceiling.
@Suite("Token Status List vectors")
struct StatusListVectorTests {
    static let folder = "TestVectors/token-status-list/"

    static func expected() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(VectorFiles.text(folder + "expected.json").utf8)) as? [String: Any])
    }

    @Test("1, 2, 4 and 8-bit lists of 2^20 entries decode to exactly the statuses expected.json lists (every other entry 0)",
          arguments: ["status_list_encoding1_long_cbor.hex", "status_list_encoding2_long_cbor.hex",
                      "status_list_encoding4_cbor.hex", "status_list_encoding8_cbor.hex"])
    func longLists(_ file: String) throws {
        let entry = try #require(try Self.expected()[file] as? [String: Any])
        let list = try StatusList(decoding: try CBORDecoder.decode(VectorFiles.hex(Self.folder + file)), limit: StatusToken.maxListBytes)
        #expect(list.bits == entry["bits"] as? Int)
        #expect(list.count == entry["entries"] as? Int)
        // The draft's 8-bit list names index 233478 with status 0 among its "non-zero" entries; 0 is what it holds.
        let nonZero = try #require(entry["nonzero_statuses"] as? [String: Int]).filter { $0.value != 0 }
        var found: [String: Int] = [:]
        for index in 0..<UInt64(list.count) {
            let status = try #require(list.status(at: index))
            if status != 0 { found[String(index)] = Int(status) }
        }
        #expect(found == nonZero)
        #expect(list.status(at: UInt64(list.count)) == nil)
    }

    @Test("the draft's 16-entry example: statuses by bit position, least significant first")
    func shortExample() throws {
        // The file reads `byte_array=[0xb9,0xa3]encoded:<hex>`: the list bytes, then its CBOR.
        let text = VectorFiles.text(Self.folder + "status_list_encoding_cbor.hex")
        let encoded = try #require(text.components(separatedBy: "encoded:").last)
        let list = try StatusList(decoding: try CBORDecoder.decode(hex(encoded)), limit: StatusToken.maxListBytes)
        #expect(list.bits == 1 && list.count == 16)
        // The draft's example: 0xB9 0xA3 → entries 0,3,4,5,7 then 8,9,13,15 are 1.
        #expect((0..<16).map { list.status(at: UInt64($0)) ?? 9 } == [1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 1, 0, 1])
    }

    @Test("the draft's signed CWT verifies with its published key; its claims read back; another key or a flipped byte fails")
    func signedToken() throws {
        let bytes = VectorFiles.hex(Self.folder + "status_list_cwt.hex")
        let token = try StatusToken(bytes)
        #expect(token.subject == "https://example.com/statuslists/1")
        #expect(token.type == StatusToken.statusListType)
        #expect(token.timeToLive == 43200)
        #expect(token.expires == Date(timeIntervalSince1970: 2_291_720_170))
        // A file source finds it by its sub; the same token twice is refused.
        let files = try StaticRevocationSource(tokens: [RevocationMaterial(bytes, origin: "file a")])
        #expect(try files.statusToken(uri: token.subject).get().origin == "file a")
        #expect(throws: VerificationError.self) {
            try StaticRevocationSource(tokens: [RevocationMaterial(bytes, origin: "file a"), RevocationMaterial(bytes, origin: "file b")])
        }
        let x = try #require(Base64URL.decode("I3HWm_0Ds1dPMI-IWmf4mBmH-YaeAVbPVu7vB27CxXo"))
        let y = try #require(Base64URL.decode("6N_d5Elj9bs1htgV3okJKIdbHEpkgTmAluYKJemzn1M"))
        let key = try PublicKey(curve: .p256, uncompressedPoint: [0x04] + x + y)
        #expect(token.isSigned(by: key))
        #expect(!token.isSigned(by: try PrivateKey.generate(.p256).publicKey))
        var flipped = bytes
        flipped[flipped.count - 5] ^= 0x01
        #expect(!(try StatusToken(flipped)).isSigned(by: key))
        guard case .statusList(let list) = token.content else {
            Issue.record("not a status list")
            return
        }
        #expect(list.bits == 1 && list.status(at: 0) == 1)
    }

    @Test("the referenced token's status claim is the map an MSO carries: status_list {idx 0, uri}")
    func referencedToken() throws {
        let token = try CBORDecoder.decode(VectorFiles.hex(Self.folder + "referenced_token_cwt.hex"))
        let message = try #require(token.tag?.item ?? token as CBORItem?)
        let payload = try #require(message.array?[2].bytes)
        let status = try MSOStatus(try #require(try CBORDecoder.decode(payload)[intKey: 65535]))
        #expect(status.statusList?.index == 0)
        #expect(status.statusList?.reference.uri == "https://example.com/statuslists/1")
        #expect(status.identifierList == nil && status.unknownMechanisms.isEmpty)
    }

    @Test("a 1 GB zlib bomb is refused at the ceiling, not inflated; a truncated stream is malformed")
    func bomb() throws {
        let bomb = Self.deflatedZeros(count: 1 << 30)
        #expect(bomb.count < 2 << 20)
        #expect(throws: Zlib.Failure.tooLarge(limit: StatusToken.maxListBytes)) {
            try Zlib.inflate(bomb, limit: StatusToken.maxListBytes)
        }
        let list = try CBORItem.encodedMap(bits: 1, lst: bomb)
        #expect(throws: VerificationError.self) { try StatusList(decoding: list, limit: StatusToken.maxListBytes) }
        let small = Zlib.deflate([UInt8](repeating: 7, count: 1000))
        #expect(try Zlib.inflate(small, limit: 1000) == [UInt8](repeating: 7, count: 1000))
        #expect(throws: Zlib.Failure.tooLarge(limit: 999)) { try Zlib.inflate(small, limit: 999) }
        #expect(throws: Zlib.Failure.self) { try Zlib.inflate(Array(small.dropLast(4)), limit: 1000) }
    }

    /// zlib of `count` zero bytes, streamed 1 MB at a time (the input is never held whole).
    static func deflatedZeros(count: Int) -> [UInt8] {
        var stream = z_stream()
        deflateInit_(&stream, Z_BEST_COMPRESSION, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&stream) }
        var zeros = [UInt8](repeating: 0, count: 1 << 20)
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var remaining = count
        zeros.withUnsafeMutableBufferPointer { input in
            repeat {
                let last = remaining <= input.count
                stream.next_in = input.baseAddress
                stream.avail_in = UInt32(min(remaining, input.count))
                remaining -= Int(stream.avail_in)
                repeat {
                    chunk.withUnsafeMutableBufferPointer { out in
                        stream.next_out = out.baseAddress
                        stream.avail_out = UInt32(out.count)
                        deflate(&stream, last ? Z_FINISH : Z_NO_FLUSH)
                        output.append(contentsOf: out[..<(out.count - Int(stream.avail_out))])
                    }
                } while stream.avail_out == 0
            } while remaining > 0
        }
        return output
    }
}

extension CBORItem {
    /// `{"bits": n, "lst": bytes}`, decoded.
    static func encodedMap(bits: UInt64, lst: [UInt8]) throws -> CBORItem {
        try CBORDecoder.decode(CBOREncoder.encode(.map([(.text("bits"), .unsigned(bits)), (.text("lst"), .bytes(lst))])))
    }
}
