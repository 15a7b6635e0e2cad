import CBOR
@testable import Mdoc
@testable import MdocModel
@testable import MdocTrust
import Testing

/// `IssuerSignedItem.repeats` compares short namespaces pairwise and longer ones through sets. Both must name the same
/// items: an item repeating an earlier digestID, else an earlier identifier whose item's digestID was new.
@Suite("Repeated digest IDs and elements in a namespace")
struct IssuerSignedItemRepeatsTests {
    static func items(_ entries: [(UInt64, String)]) throws -> [IssuerSignedItem] {
        let array = CBORValue.array(entries.map { id, element in
            .tagged(24, .bytes(CBOREncoder.encode(.map([
                (.text("digestID"), .unsigned(id)), (.text("random"), .bytes([0])),
                (.text("elementIdentifier"), .text(element)), (.text("elementValue"), .bool(true)),
            ]))))
        })
        return try IssuerSignedItem.all(#require(CBORDecoder.decode(CBOREncoder.encode(array)).array))
    }

    @Test("the same repeats, compared pairwise and through sets", arguments: [
        ([(1, "a"), (2, "b"), (3, "c")], [:]),
        ([(1, "a"), (1, "b")], [1: .digestID]),
        ([(1, "a"), (2, "a")], [1: .element]),
        ([(1, "a"), (2, "b"), (1, "a"), (3, "a")], [2: .digestID, 3: .element]),
        // Item 1 repeats a digestID, so its element does not count: item 2 repeats nothing.
        ([(1, "a"), (1, "b"), (2, "b")], [1: .digestID]),
        ([(5, "x"), (5, "x"), (5, "x")], [1: .digestID, 2: .digestID]),
    ] as [([(UInt64, String)], [Int: IssuerSignedItem.Repeat])])
    func repeats(entries: [(UInt64, String)], expected: [Int: IssuerSignedItem.Repeat]) throws {
        #expect(IssuerSignedItem.repeats(try Self.items(entries)) == expected)
        // Padding after the items (repeats look only backwards) takes the namespace past the pairwise limit.
        let padding = (0 ..< IssuerSignedItem.pairwiseRepeatLimit).map { (UInt64(1000 + $0), "padding \($0)") }
        let long = try Self.items(entries + padding)
        #expect(long.count > IssuerSignedItem.pairwiseRepeatLimit)
        #expect(IssuerSignedItem.repeats(long) == expected)
    }
}
