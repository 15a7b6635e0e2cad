import Foundation
import MdocModel
import MdocTrust
import Verifier

/// What every input must leave true. A broken invariant traps, so libFuzzer saves the input as a crash.
enum Invariant {
    static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("fuzz invariant broken: \(message())") }
    }

    /// A report is either verified with no error, or rejected with a catalogued code, a failed check and no
    /// documents (no element value leaves the library unless every check passed); its JSON always parses.
    static func wellFormed(_ report: VerificationReport) {
        if report.verified {
            require(report.errors.isEmpty, "a verified report carries errors")
        } else {
            require(!report.errors.isEmpty, "a rejected report has no error")
            require(report.documents.isEmpty, "a rejected report hands out documents")
            require(report.checks.contains { $0.status == .fail }, "a rejected report has no failed check")
        }
        for error in report.errors {
            require(catalogued.contains(error.code), "uncatalogued error code \(error.code)")
            require(!error.message.isEmpty, "error \(error.code) has no message")
        }
        let json = Data(report.json.serializedBytes())
        require((try? JSONSerialization.jsonObject(with: json)) != nil, "the report's JSON does not parse")
    }

    /// A parser rejects with a `VerificationError` carrying a catalogued code (trust lists add their own).
    static func catalogued(_ error: any Error) {
        guard let error = error as? VerificationError else {
            return require(false, "a parser threw \(type(of: error)) instead of a VerificationError")
        }
        require(catalogued.contains(error.code) || ErrorCode.trustCodes.contains(error.code), "uncatalogued error code \(error.code)")
    }

    static let catalogued = Set(ErrorCode.verificationCodes)
}
