import Foundation
import Mdoc

/// The outcome of one verification: every check with its status, the errors with stable codes and,
/// only when everything passed, the disclosed documents.
public struct VerificationReport: Sendable {
    /// The one list of formats: the CLI, the server and MdocTesting read it.
    public enum Format: String, Sendable, Codable, CaseIterable {
        case appleApp = "apple-app"
        case annexC = "annex-c"
        case deviceResponse = "device-response"
        case openID4VP = "openid4vp"

        /// Whether a relying party creates a request for the wallet first (a nonce, keys, a transcript the server
        /// keeps). A bare DeviceResponse arrives with a transcript its caller built.
        public var hasRequestFlow: Bool { self != .deviceResponse }
    }

    public enum Assurance: String, Sendable, Codable {
        /// Verified against the configured production trust and keys.
        case production
        /// Test mode: Apple's published test key was allowed; never treat as a real identity.
        case test
    }

    public let format: Format
    public let assurance: Assurance
    public let checks: [CheckResult]
    public let errors: [VerificationError]
    /// Empty unless `verified`.
    public let documents: [VerifiedDocument]
    public let timings: StageTimings

    public var verified: Bool { errors.isEmpty && !documents.isEmpty }

    /// The first failure, for one-line summaries.
    public var primaryError: VerificationError? { errors.first }

    init(format: Format, assurance: Assurance, log: CheckLog, documents: [VerifiedDocument], timings: StageTimings) {
        self.format = format
        self.assurance = assurance
        self.checks = log.checks
        self.errors = log.errors
        // No element value leaves the library unless every check passed.
        self.documents = log.hasFailures ? [] : documents
        self.timings = timings
    }

    /// A report for a response refused before any check could run (e.g. a server's stored request is unusable).
    /// A rejection before the pipeline ran (an unusable stored request, a response that is not even the format's
    /// encoding): the error and the one failed check line that explains it, `envelope.structure` unless given.
    public static func rejected(format: Format, assurance: Assurance, error: VerificationError,
                                check: CheckID = .envelopeStructure) -> VerificationReport {
        VerificationReport(format: format, assurance: assurance,
                           checks: [CheckResult(id: check, status: .fail, detail: error.message, code: error.code)], errors: [error])
    }

    private init(format: Format, assurance: Assurance, checks: [CheckResult], errors: [VerificationError]) {
        self.format = format
        self.assurance = assurance
        self.checks = checks
        self.errors = errors
        self.documents = []
        self.timings = StageTimings()
    }
}
