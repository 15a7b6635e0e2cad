import ExampleFormat
import MdocModel
import MdocTesting
import Testing
import TestSupport
import Verifier

/// The kit's fault table through a format registered by the test alone (`org-example-test`): every mdoc fault is
/// built for its transcript and verified through its registered flow, ending in the code the table states for a
/// bare DeviceResponse (the format adds no envelope, so no transport fault applies).
@Suite("Fault table through a registered format (org-example-test)")
struct RegisteredFormatFaultTableTests {
    static let faults = Fault.allCases.filter { $0.transportStage == nil }

    @Test("mdoc fault → its code through org-example-test's flow", arguments: faults)
    func row(_ fault: Fault) throws {
        var testCase = SimulatedCase(faults: [fault], format: .orgExampleTest, time: Fixtures.time)
        testCase.registry = .withExample
        let result = try testCase.run()
        let codes = Set(result.report.errors.map(\.code))
        #expect(result.report.format == .orgExampleTest)
        if let code = FaultTableTests.code(fault, .deviceResponse) {
            #expect(codes == [code], "\(result.report.errors)")
        } else {
            #expect(result.report.verified, "\(result.report.errors)")
        }
        #expect(result.failure == nil, "\(result.failure ?? "")")
    }

    @Test("the mock-data rule follows the registered descriptor: issuer.mock_data where it says mock data applies, the signature failure where not")
    func mockDataFollowsTheDescriptor() throws {
        let example = FormatDescriptor.orgExampleTest
        let mocking = FormatDescriptor(format: example.format, title: example.title, documentation: example.documentation, checks: [],
                                       codes: [], wire: example.wire, bindsOrigin: true, mockDataApplies: true,
                                       flow: { _, verifier in OrgExampleTestFlow(verifier: verifier) })
        for (registry, code) in [(KitRegistry.withExample, ErrorCode.issuerSignatureInvalid),
                                 (KitRegistry.standard.adding(mocking, .orgExampleTest), ErrorCode.issuerMockData)] {
            var testCase = SimulatedCase(faults: [.mockData], format: .orgExampleTest, time: Fixtures.time)
            testCase.registry = registry
            let result = try testCase.run()
            let report = result.report
            #expect(report.errors.map(\.code) == [code], "\(report.errors)")
            // The kit predicts the same from the registered descriptor.
            #expect(result.expected == .rejected(code) && result.failure == nil, "\(result.failure ?? "")")
            #expect(report.checks.contains { $0.id == .issuerMockData } == (code == .issuerMockData))
        }
    }

    @Test("an unfaulted answer verifies; the built-in registry cannot simulate the format, and a transport fault does not apply")
    func seam() throws {
        var testCase = SimulatedCase(format: .orgExampleTest, time: Fixtures.time)
        testCase.registry = .withExample
        #expect(try testCase.run().report.verified)
        #expect(throws: SimulationError.self) { try SimulatedCase(format: .orgExampleTest, time: Fixtures.time).run() }
        var transport = SimulatedCase(faults: [.corruptedCiphertext], format: .orgExampleTest, time: Fixtures.time)
        transport.registry = .withExample
        #expect(throws: SimulationError.self) { try transport.run() }
    }
}
