import Foundation
import MdocTesting

/// A verifier under test: gives one verdict per case. The library's targets run a command per case folder
/// (`CommandTarget`), a `verify-server` (`VerifyServerTarget`), any verifier's HTTP endpoints (`HTTPProfileTarget`) or
/// the relying party's own flows in-process (`RequestFlowTarget`); a test can conform its own.
///
/// `observe(_:)` is called from several threads at once when a run has more than one job.
public protocol ConformanceTarget: Sendable {
    /// How the report names the target.
    var name: String { get }
    /// Runs one case.
    func observe(_ testCase: ConformanceRunCase) -> ConformanceObservation
    /// How to run the case again by hand, when it fails; nil when there is no such command.
    func reproduce(_ testCase: ConformanceRunCase) -> String?
    /// Why the case does not apply to this target, or nil.
    func notApplicable(_ testCase: ConformanceRunCase) -> String?
    /// What the target cannot do, whatever the run says: its cases are not applicable.
    var unsupported: Set<ConformanceCase.Requirement> { get }
}

extension ConformanceTarget {
    /// Every case applies, by default.
    public func notApplicable(_ testCase: ConformanceRunCase) -> String? { nil }
    /// The target does everything a case may require, by default.
    public var unsupported: Set<ConformanceCase.Requirement> { [] }
    /// No command reproduces a case, by default.
    public func reproduce(_ testCase: ConformanceRunCase) -> String? { nil }
}

extension ConformanceObservation {
    /// `body`'s observation; a `TargetFailure` it throws is the error it describes, any other error its text.
    static func catching(_ body: () throws -> ConformanceObservation) -> ConformanceObservation {
        do {
            return try body()
        } catch let failure as TargetFailure {
            return .error(failure.description)
        } catch {
            return .error("\(error)")
        }
    }

    /// The verdict `answer` reads; a case that replays its answer answers twice, and its first answer must be
    /// accepted, or the replay proves nothing.
    static func replaying(_ testCase: ConformanceCase, _ answer: () throws -> ConformanceObservation) throws -> ConformanceObservation {
        if testCase.postsTwice {
            guard case .verdict(.accept, _, _) = try answer() else {
                return .error("the first answer to the request was not accepted, so its replay proves nothing")
            }
        }
        return try answer()
    }
}
