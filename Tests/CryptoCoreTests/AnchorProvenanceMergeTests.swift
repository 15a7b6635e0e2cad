import CryptoCore
import Foundation
import Testing

/// One certificate vouched for by two sources keeps one record that anchors wherever either would, whatever the order
/// in which the sources loaded.
@Suite("AnchorProvenance.merged")
struct AnchorProvenanceMergeTests {
    private static let january = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
    private static let march = Date(timeIntervalSince1970: 1_772_323_200)  // 2026-03-01

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let first: AnchorProvenance
        let second: AnchorProvenance
        let expected: AnchorProvenance
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "trusted directly and from a refusing list: never stale, and not said to come from the list",
             first: AnchorProvenance(),
             second: AnchorProvenance(docTypes: nil, source: "VICAL A", listNextUpdate: january, refusedWhenStale: true),
             expected: AnchorProvenance()),
        Case(name: "two lists: the later nextUpdate decides, and its source is named",
             first: AnchorProvenance(source: "VICAL A", listNextUpdate: january, refusedWhenStale: true),
             second: AnchorProvenance(source: "LoTE B", listNextUpdate: march, refusedWhenStale: true),
             expected: AnchorProvenance(source: "LoTE B", listNextUpdate: march, refusedWhenStale: true)),
        Case(name: "past both nextUpdates the anchor is refused only when both records refuse",
             first: AnchorProvenance(source: "VICAL A", listNextUpdate: march, refusedWhenStale: true),
             second: AnchorProvenance(source: "VICAL B", listNextUpdate: january, refusedWhenStale: false),
             expected: AnchorProvenance(source: "VICAL A", listNextUpdate: march, refusedWhenStale: false)),
        Case(name: "a scope and any docType: the scope (a scope never widens)",
             first: AnchorProvenance(docTypes: ["org.iso.18013.5.1.mDL"]),
             second: AnchorProvenance(),
             expected: AnchorProvenance(docTypes: ["org.iso.18013.5.1.mDL"])),
        // A stale mDL listing must not borrow another list's freshness for a docType that list never vouched for.
        Case(name: "two scopes: only the docTypes both allow",
             first: AnchorProvenance(docTypes: ["org.iso.18013.5.1.mDL"], source: "A", listNextUpdate: january, refusedWhenStale: true),
             second: AnchorProvenance(docTypes: ["eu.europa.ec.eudi.pid.1", "org.iso.18013.5.1.mDL"], source: "B", listNextUpdate: march,
                                      refusedWhenStale: true),
             expected: AnchorProvenance(docTypes: ["org.iso.18013.5.1.mDL"], source: "B", listNextUpdate: march, refusedWhenStale: true)),
    ]

    @Test("merging", arguments: cases)
    func merging(_ test: Case) {
        #expect(test.first.merged(with: test.second) == test.expected)
        // The order the sources loaded in changes nothing but a tie's source name.
        let reversed = test.second.merged(with: test.first)
        #expect(reversed.listNextUpdate == test.expected.listNextUpdate && reversed.refusedWhenStale == test.expected.refusedWhenStale)
        #expect(reversed.docTypes.map(Set.init) == test.expected.docTypes.map(Set.init))
    }

    @Test("record(_:for:in:) stores the first record as given and merges a later one into it")
    func recording() {
        var provenance: [[UInt8]: AnchorProvenance] = [:]
        let fingerprint = [UInt8](repeating: 7, count: 32)
        let stale = AnchorProvenance(source: "VICAL A", listNextUpdate: Self.january, refusedWhenStale: true)
        AnchorProvenance.record(stale, for: fingerprint, in: &provenance)
        #expect(provenance[fingerprint] == stale)
        AnchorProvenance.record(AnchorProvenance(), for: fingerprint, in: &provenance)
        #expect(provenance[fingerprint]?.listNextUpdate == nil && provenance[fingerprint]?.refusedWhenStale == false)
    }
}
