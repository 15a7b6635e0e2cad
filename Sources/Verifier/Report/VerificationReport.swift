import Foundation
import Mdoc

/// The outcome of one verification: every check with its status, the errors with stable codes and,
/// only when everything passed, the disclosed documents.
public struct VerificationReport: Sendable {
    /// The response formats the library verifies; the CLI, the server and MdocTesting read this one list.
    public enum Format: String, Sendable, Codable, CaseIterable {
        /// Apple "Verify with Wallet" in-app, `PKIdentityDocument.encryptedData` (`apple-app`).
        case appleApp = "apple-app"
        /// ISO/IEC TS 18013-7 Annex C over the Digital Credentials API (`annex-c`).
        case annexC = "annex-c"
        /// A bare ISO/IEC 18013-5 DeviceResponse with a transcript its caller built (`device-response`).
        case deviceResponse = "device-response"
        /// OpenID4VP over the Digital Credentials API (`openid4vp`).
        case openID4VP = "openid4vp"

        /// Whether a relying party creates a request for the wallet first (a nonce, keys, a transcript the server
        /// keeps). A bare DeviceResponse arrives with a transcript its caller built.
        public var hasRequestFlow: Bool { self != .deviceResponse }
    }

    /// Whether the report can stand for a real identity or comes from test mode.
    public enum Assurance: String, Sendable, Codable {
        /// Verified against the configured production trust and keys.
        case production
        /// Test mode: Apple's published test key was allowed; never treat as a real identity.
        case test
    }

    /// The format of the verified response.
    public let format: Format
    /// Production or test assurance, from the configuration's test mode.
    public let assurance: Assurance
    /// Every check that ran, in order, with its status.
    public let checks: [CheckResult]
    /// The failures, with stable codes; empty when nothing failed.
    public let errors: [VerificationError]
    /// Empty unless `verified`.
    public let documents: [VerifiedDocument]
    /// Time spent per pipeline stage.
    public let timings: StageTimings

    /// Whether the response verified: no errors and at least one disclosed document.
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

    /// A report for a response refused before the pipeline ran (an unusable stored request, a response that is not
    /// even the format's encoding).
    ///
    /// It holds `error` and the one failed check line that explains it, `check` (`envelope.structure` unless given).
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
        self.timings = StageTimings(traced: false)
    }
}
