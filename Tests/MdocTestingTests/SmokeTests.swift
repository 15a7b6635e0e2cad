import Foundation
import MdocTesting
import Testing
import Verifier

@Suite("MdocTesting smoke")
struct SmokeTests {
    @Test func appleP256Verifies() throws {
        let result = try SimulatedCase().run()
        #expect(result.failure == nil, "\(result.failure ?? "")")
        print(ReportSummary.text(result.report))
    }

    @Test(arguments: Fault.allCases)
    func fault(_ fault: Fault) throws {
        guard fault.formats.contains(.appleApp) else { return }
        let result = try SimulatedCase(faults: [fault]).run()
        #expect(result.failure == nil, "\(fault.name): \(result.failure ?? "")")
    }
}
