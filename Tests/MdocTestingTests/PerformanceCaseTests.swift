import MdocTesting
import Testing
import Verifier

/// The benchmark cases state their namespace and element counts (the floor's SHA-256 count uses them) without
/// verifying at construction, so the first timed verification stays cold; these tests hold the counts to the verified
/// documents.
@Suite("Benchmark cases: the stated namespace and element counts are the verified document's")
struct PerformanceCaseTests {
    @Test(arguments: [PerformanceCase.Name.apple, .large])
    func countsMatchTheVerifiedDocument(name: PerformanceCase.Name) throws {
        let bench = try PerformanceCase.make(name)
        let report = bench.verify()
        #expect(report.verified, "\(report.errors)")
        let document = try #require(report.documents.first)
        let elements = document.elements.values.reduce(0) { $0 + $1.count }
        #expect(elements == bench.elementCount)
        #expect(bench.title.contains("\(document.elements.count) namespaces, \(elements) elements"))
    }
}
