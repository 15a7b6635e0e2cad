import CBOR
import Mdoc
import Testing
import TestSupport

@Suite("InspectTree: the named CBOR tree that `mdocverify inspect` prints and the inspector page draws")
struct InspectTreeTests {
    static func count(_ node: InspectNode) -> Int { 1 + node.children.reduce(0) { $0 + count($1) } }

    @Test("ISO Annex D's DeviceResponse: the structures are named and the MSO inside issuerAuth is opened")
    func names() throws {
        let tree = InspectTree.node(try CBORDecoder.decode(AnnexDVector.deviceResponse))
        #expect(tree.summary == "DeviceResponse")
        let text = tree.lines().joined(separator: "\n")
        #expect(text.contains("issuerAuth: COSE_Sign1"))
        #expect(text.contains("MobileSecurityObject"))
        #expect(text.contains("alg: ES256 (-7)"))
        #expect(text.contains("family_name = \"Doe\""))
    }

    @Test("limited(to:) keeps the first nodes depth-first and says what it cut; a limit above the size changes nothing",
          arguments: [1, 2, 10, 40])
    func limited(limit: Int) throws {
        let tree = InspectTree.node(try CBORDecoder.decode(AnnexDVector.deviceResponse))
        #expect(tree.limited(to: Self.count(tree)) == tree)
        let cut = tree.limited(to: limit)
        let lines = cut.lines()
        #expect(lines.filter { !$0.contains("not shown") }.count == limit)
        #expect(Self.count(tree) > limit)
        #expect(lines.last?.contains("… (not shown: over \(limit) items)") == true)
        #expect(lines.first == tree.lines().first)
    }

    @Test("building stops at the limit: 60,000 items make about a thousand nodes and one line saying what was cut")
    func buildingStops() throws {
        let bytes: [UInt8] = [0x99, 0xEA, 0x60] + [UInt8](repeating: 0x00, count: 60_000)
        let tree = InspectTree.node(try CBORDecoder.decode(bytes), limit: 1_000)
        #expect(tree.summary == "array of 60000")
        #expect(Self.count(tree) == 1_001)
        #expect(tree.children.last?.summary == "… (not shown: over 1000 items)")
    }
}
