import MdocModel

/// Everything the library knows about one response format, in one value: its identity, where it is documented, the
/// checks and codes of its front door, and its request flow.
///
/// Each format's folder declares its descriptor (e.g. `FormatDescriptor.annexC` in `AnnexC/AnnexCFormat.swift`);
/// `FormatRegistry.descriptors` lists them. Every other list of formats — `VerificationReport.Format.allCases`, the
/// server's flows, the check and code catalogues, the CLI's and the kit's format lists — is derived from that one.
public struct FormatDescriptor: Sendable {
    /// The format's identity (`VerificationReport.Format`).
    public let format: VerificationReport.Format
    /// A short human title, e.g. "ISO/IEC TS 18013-7 Annex C".
    public let title: String
    /// The section of docs/formats.md that specifies what the verifier checks, e.g. "docs/formats.md §2".
    public let documentation: String
    /// The checks only this format's front door records (the shared ones are in `CheckID.sharedFormatChecks`).
    public let checks: [CheckID]
    /// The codes only this format's front door raises (the shared ones are in `ErrorCode.sharedFormatCodes`).
    public let codes: [ErrorCode]
    /// How the wallet's answer travels: bytes or text, and the Digital Credentials API protocols it answers to.
    public let wire: FormatWire
    /// Whether the session transcript binds the requesting web page's origin: a request is then made for one origin
    /// (an API key's), and the demo page can ask for it.
    public let bindsOrigin: Bool
    /// Whether Apple's wallet produces the format, so that a development device's mock data is recognised
    /// (`issuer.mock_data`, docs/formats.md §1.6).
    public let mockDataApplies: Bool
    /// Rebuilds a request's kept state from values a caller pastes by name (the inspector, without a stored request:
    /// Apple's `nonce`); nil for a format whose state holds secrets no paste carries. Throws a coded error naming
    /// what is missing.
    public let pastedState: (@Sendable ([String: String]) throws(VerificationError) -> KeptState)?
    /// Builds the format's request flow on the runtime's one verifier, or nil when the environment cannot serve it (a
    /// signed-only format without a reader identity); the builder is nil when the caller builds the transcript.
    let flow: (@Sendable (FlowEnvironment, ResponseVerifier) -> (any RequestFlow)?)?

    package init(format: VerificationReport.Format, title: String, documentation: String, checks: [CheckID], codes: [ErrorCode],
         wire: FormatWire, bindsOrigin: Bool = false, mockDataApplies: Bool = false,
         pastedState: (@Sendable ([String: String]) throws(VerificationError) -> KeptState)? = nil,
         flow: (@Sendable (FlowEnvironment, ResponseVerifier) -> (any RequestFlow)?)?) {
        self.format = format
        self.title = title
        self.documentation = documentation
        self.checks = checks
        self.codes = codes
        self.wire = wire
        self.bindsOrigin = bindsOrigin
        self.mockDataApplies = mockDataApplies
        self.pastedState = pastedState
        self.flow = flow
    }

    /// Whether a relying party creates a request for the wallet first; see `VerificationReport.Format.hasRequestFlow`.
    public var hasRequestFlow: Bool { flow != nil }
}
