import MdocModel

/// How a format's answer travels from the wallet to the relying party's server, as the edges (the server's wallet
/// endpoint, the inspector, the CLI, the compliance kit) need to know it.
public struct FormatWire: Sendable, Equatable {
    /// The answer is bytes (Apple's `encryptedData`), which clients carry as base64 or hex text; otherwise it is text.
    public let binary: Bool
    /// The Digital Credentials API protocol identifiers the format's requests use, the default one first; empty for a
    /// format not answered through the API.
    public let dcAPIProtocols: [String]
    /// The verifier takes the whole DC API result (`{protocol, data}`: it checks the protocol itself) rather than the
    /// string in `data.response`.
    public let takesWholeCredential: Bool
    /// The wallet fetches the request by reference from the verifier (`request_uri`) and posts its answer, a form, to
    /// the verifier itself (`response_uri`): no page relays it. The server serves such a format on its wallet routes
    /// `GET`/`POST /v1/wallet/{requestId}/request` and `POST /v1/wallet/{requestId}/direct_post`.
    public let byReference: Bool

    init(binary: Bool, dcAPIProtocols: [String], takesWholeCredential: Bool, byReference: Bool = false) {
        self.binary = binary
        self.dcAPIProtocols = dcAPIProtocols
        self.takesWholeCredential = takesWholeCredential
        self.byReference = byReference
    }

    /// Bytes, not through the Digital Credentials API (Apple's in-app answer).
    public static let bytes = FormatWire(binary: true, dcAPIProtocols: [], takesWholeCredential: false)
    /// Text the caller hands over with a transcript it built (a bare DeviceResponse).
    public static let text = FormatWire(binary: false, dcAPIProtocols: [], takesWholeCredential: false)
    /// A form the wallet posts to the verifier, after fetching the request by reference (OpenID4VP without the DC API).
    public static let byReference = FormatWire(binary: false, dcAPIProtocols: [], takesWholeCredential: false, byReference: true)

    /// An answer through the Digital Credentials API under `protocols`.
    public static func digitalCredentials(_ protocols: [String], wholeCredential: Bool) -> FormatWire {
        FormatWire(binary: false, dcAPIProtocols: protocols, takesWholeCredential: wholeCredential)
    }

    /// Whether the answer comes through the Digital Credentials API (a web format).
    public var isDigitalCredential: Bool { !dcAPIProtocols.isEmpty }

    /// The text `verify` takes from a DC API result `{protocol, data}` whose JSON text is `credential`, or why it
    /// cannot be one of this format's: another protocol (`envelope.unsupported`) or no string `data.response`
    /// (`input.malformed`). `formatName` names the format in the messages.
    package func response(protocol identifier: String, data: JSONValue?, credential: String, formatName: String) -> Result<String, VerificationError> {
        guard isDigitalCredential else {
            return .failure(VerificationError(.envelopeUnsupported,
                "a \(formatName) request is not answered through the Digital Credentials API; post {\"response\": …}"))
        }
        if takesWholeCredential { return .success(credential) }
        guard dcAPIProtocols.contains(identifier) else {
            return .failure(VerificationError(.envelopeUnsupported,
                "a \(formatName) request was answered with protocol \(InputQuote.short(identifier)), not \(dcAPIProtocols.joined(separator: " or "))"))
        }
        guard let inner = data?["response"]?.string else {
            return .failure(VerificationError(.inputMalformed, "the \(dcAPIProtocols[0]) answer's `data` has no string `response`"))
        }
        return .success(inner)
    }
}
