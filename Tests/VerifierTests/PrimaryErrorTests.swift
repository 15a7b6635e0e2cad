import Foundation
import Mdoc
import MdocModel
import MdocTesting
import MdocTrust
import Testing
import Verifier

/// A report's `primaryError` names what is wrong with the document, not that its status could not be learnt.
@Suite("The primary error of a report")
struct PrimaryErrorTests {
    static let time = Date(timeIntervalSince1970: 1_780_000_000)

    @Test("a document failing its own checks is summarised by that failure, even when its status is unknown too",
          arguments: [(Fault.tamperedElementValue, ErrorCode.digestMismatch), (.deviceSignatureOtherTranscript, .deviceSignatureInvalid)])
    func ownFailureFirst(fault: Fault, code: ErrorCode) throws {
        let result = try SimulatedCase(faults: [fault, .statusListExpired], format: .deviceResponse, time: Self.time).run()
        let codes = result.report.errors.map(\.code)
        #expect(codes.contains(.revocationUnknown), "the status is unknown too: \(codes)")
        #expect(codes.contains(code))
        #expect(result.report.primaryError?.code == code)
    }

    @Test("an unknown status alone is the primary error")
    func unknownAlone() throws {
        let result = try SimulatedCase(faults: [.statusListExpired], format: .deviceResponse, time: Self.time).run()
        #expect(result.report.errors.map(\.code) == [.revocationUnknown])
        #expect(result.report.primaryError?.code == .revocationUnknown)
    }
}
