import Foundation
import MdocTesting

/// What a target said about one case.
public enum ConformanceObservation: Sendable {
    /// A verdict, with the codes the target named (possibly none) and a detail for the report (e.g. " (HTTP 422)").
    case verdict(ConformanceCase.Verdict, codes: [String], detail: String)
    /// No verdict: the target failed, timed out or answered something else.
    case error(String)
    /// The verifier says it does not do what the case needs (the reason, in its words); counted apart.
    case notApplicable(String)
}

/// The outcome of one case.
public struct ConformanceResult: Sendable {
    /// How the case ended.
    public enum Outcome: String, CaseIterable, Sendable {
        /// A response that must be refused was accepted: the critical failure.
        case wronglyAccepted = "wrongly accepted"
        /// A correct response was refused.
        case wronglyRejected = "wrongly rejected"
        /// Refused, but not with the code this implementation must name (only with `expectCodes`).
        case wrongCode = "wrong code"
        /// The target gave no verdict: it failed, timed out or answered something else.
        case error
        /// The verdict (and, with `expectCodes`, the code) is the case's.
        case passed
        /// The case needs something the target does not do; the reason says what.
        case notApplicable = "not applicable"
    }

    /// The case.
    public let testCase: ConformanceRunCase
    /// How it ended.
    public let outcome: Outcome
    /// One sentence: why the case failed (or passed).
    public let reason: String
    /// The target's verdict; nil when it gave none.
    public let got: ConformanceCase.Verdict?
    /// The codes the target named.
    public let gotCodes: [String]
    /// How long the case took.
    public let seconds: Double
    /// How to run the case again by hand, for a case that did not pass.
    public let reproduce: String?

    /// Compares `observation` with what the case needs.
    public static func judge(_ testCase: ConformanceRunCase, _ observation: ConformanceObservation, expectCodes: Bool, seconds: Double,
                             reproduce: String?) -> ConformanceResult {
        func result(_ outcome: Outcome, _ reason: String, _ got: ConformanceCase.Verdict?, _ codes: [String]) -> ConformanceResult {
            ConformanceResult(testCase: testCase, outcome: outcome, reason: reason, got: got, gotCodes: codes, seconds: seconds,
                       reproduce: [.passed, .notApplicable].contains(outcome) ? nil : reproduce)
        }
        switch observation {
        case .error(let why):
            return result(.error, "no verdict: \(why)", nil, [])
        case .notApplicable(let why):
            return result(.notApplicable, why, nil, [])
        case let .verdict(verdict, codes, detail):
            let said = codes.isEmpty ? "" : " (\(codes.joined(separator: ", ")))"
            switch (testCase.verdict, verdict) {
            case (.accept, .accept):
                return result(.passed, "accepted", verdict, codes)
            case (.accept, .reject):
                return result(.wronglyRejected, "a correct response (\(testCase.summary)) must be accepted; it was rejected\(said)\(detail)",
                              verdict, codes)
            case (.reject, .accept):
                return result(.wronglyAccepted, "\(testCase.summary): must be \(testCase.expectation); it was accepted\(detail)", verdict, codes)
            case (.reject, .reject):
                if expectCodes && !Self.codesMatch(codes, testCase) {
                    return result(.wrongCode, "rejected\(codes.isEmpty ? " without a code" : said), where this implementation must say "
                                  + (testCase.code ?? testCase.codes.joined(separator: " or ")), verdict, codes)
                }
                return result(.passed, "rejected\(said)", verdict, codes)
            }
        }
    }

    /// Whether the named codes are the case's: exactly its one code, or within its set.
    public static func codesMatch(_ codes: [String], _ testCase: ConformanceRunCase) -> Bool {
        guard !codes.isEmpty else { return testCase.codes.isEmpty }
        if let code = testCase.code { return Set(codes) == [code] }
        return Set(codes).isSubset(of: Set(testCase.codes))
    }

    /// A case that does not apply to the target, and why.
    public static func notApplicable(_ testCase: ConformanceRunCase, reason: String) -> ConformanceResult {
        ConformanceResult(testCase: testCase, outcome: .notApplicable, reason: reason, got: nil, gotCodes: [], seconds: 0, reproduce: nil)
    }
}

