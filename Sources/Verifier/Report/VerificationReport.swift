import Foundation
import Mdoc
import MdocModel
import MdocTrust

/// The outcome of one verification: every check with its status, the errors with stable codes and,
/// only when everything passed, the disclosed documents.
public struct VerificationReport: Sendable {
    /// A response format the library verifies, named by its stable identifier (`apple-app`, `annex-c`,
    /// `device-response`, `openid4vp`).
    ///
    /// The formats are those of `FormatRegistry.descriptors`: each format's folder declares its static member and its
    /// `FormatDescriptor`, and the registry lists the descriptors once. The CLI, the server and MdocTesting read
    /// `allCases`, so they follow the registry.
    public struct Format: RawRepresentable, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
        /// The stable identifier, e.g. `annex-c`.
        public let rawValue: String

        /// The registered format named `rawValue`; nil for any other name.
        public init?(rawValue: String) {
            guard let known = FormatRegistry.descriptors.first(where: { $0.format.rawValue == rawValue }) else { return nil }
            self = known.format
        }

        /// A format's identity, for its descriptor, or read back from where this package kept it (a stored request) to be
        /// looked up in the registry in use.
        package init(registering rawValue: String) { self.rawValue = rawValue }

        /// Every registered format, in registry order.
        public static var allCases: [Format] { FormatRegistry.descriptors.map(\.format) }

        /// The format's descriptor.
        public var descriptor: FormatDescriptor? { FormatRegistry.descriptors.first { $0.format == self } }

        /// Whether a relying party creates a request for the wallet first (a nonce, keys, a transcript the server
        /// keeps). A bare DeviceResponse arrives with a transcript its caller built.
        public var hasRequestFlow: Bool { descriptor?.hasRequestFlow ?? false }

        /// The identifier.
        public var description: String { rawValue }

        /// Decodes a registered format's identifier; any other string is a decoding error.
        public init(from decoder: any Decoder) throws {
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let format = Format(rawValue: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown format \(text)"))
            }
            self = format
        }

        /// Encodes the identifier.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
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

    /// The failure that explains the rejection, for one-line summaries, the server's log line and its metrics: the
    /// first one whose cause is known. A status the verifier could not learn (`revocation.unknown`) stands first only
    /// when nothing else failed, so a tampered document is not summarised as an unreachable list.
    public var primaryError: VerificationError? { errors.first { $0.code != .revocationUnknown } ?? errors.first }

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
        self.timings = StageTimings()
    }
}
