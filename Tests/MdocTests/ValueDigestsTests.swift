import CBOR
import CryptoCore
@testable import Mdoc
@testable import MdocModel
@testable import MdocTrust
import Testing

/// `ValueDigests` reads an MSO's digests in place: a short namespace is scanned, a long one indexed. Both must find
/// exactly the digest with the asked ID, and say nil for an ID the namespace lacks.
@Suite("MSO value digests, looked up in place")
struct ValueDigestsTests {
    /// The disclosed bytes of digest `id`: different for every ID, so a wrong position cannot match.
    static func data(_ id: UInt64) -> ArraySlice<UInt8> { ArraySlice("item \(id)".utf8) }

    static func valueDigests(_ nameSpaces: [(String, [UInt64])]) throws -> ValueDigests {
        let value = CBORValue.map(nameSpaces.map { name, ids in
            (.text(name), .map(ids.map { (.unsigned($0), .bytes(Digest.hash(.sha256, data($0)))) }))
        })
        return try MobileSecurityObject.valueDigests(CBORDecoder.decode(CBOREncoder.encode(value)), algorithm: .sha256)
    }

    @Test("every digest ID is found at its own entry, absent IDs are nil", arguments: [
        [UInt64](arrayLiteral: 9, 2, 14, 0),            // scanned
        Array((0 ..< 100).reversed()).map(UInt64.init),  // indexed (from ValueDigests.NameSpace.indexedFrom entries)
    ])
    func lookups(ids: [UInt64]) throws {
        let digests = try Self.valueDigests([("other", [1]), ("ns", ids)])
        #expect(digests.nameSpaces.map(\.name) == ["other", "ns"])
        #expect(digests[nameSpace: "absent"] == nil)
        let nameSpace = try #require(digests[nameSpace: "ns"])
        #expect(nameSpace.ids == ids)
        #expect((nameSpace.index != nil) == (ids.count >= ValueDigests.NameSpace.indexedFrom))
        for id in ids {
            #expect(nameSpace.matches(id, .sha256, Self.data(id)) == true)
            #expect(nameSpace.matches(id, .sha256, Self.data(id + 1000)) == false)
        }
        #expect(nameSpace.matches(1000, .sha256, Self.data(1000)) == nil)
        #expect(digests[nameSpace: "other"]?.matches(1, .sha256, Self.data(1)) == true)
    }

    @Test("a digest of the wrong length or a non-uint digest ID is mso.malformed")
    func malformedEntries() throws {
        for entry: (CBORValue, CBORValue) in [(.unsigned(1), .bytes([1, 2])), (.text("1"), .bytes(Array(repeating: 0, count: 32))),
                                              (.unsigned(1), .text("digest"))] {
            let item = try CBORDecoder.decode(CBOREncoder.encode(.map([(.text("ns"), .map([entry]))])))
            let error = ResponseLimitsTests.refusal { () throws(VerificationError) in
                _ = try MobileSecurityObject.valueDigests(item, algorithm: .sha256)
            }
            #expect(error?.code == .msoMalformed)
        }
    }
}
