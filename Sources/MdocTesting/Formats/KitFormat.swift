import CryptoCore
import Foundation
import Mdoc
import MdocModel
import Verifier

/// The compliance kit's side of one format: how it stands in for the relying party of a seeded case, which
/// transport faults its envelope has and what they must produce.
///
/// Each format's file under `Formats/` declares its value; `KitFormat.all` lists them in `FormatRegistry` order, and
/// a test keeps the two lists equal.
package struct KitFormat: Sendable {
    /// What a seeded case's relying party keeps: the wallet's target, the flow's kept state (nil without a request
    /// flow) and the environment its flow is built on.
    package struct SeededRequest: Sendable {
        package let target: ResponseTarget
        package let state: KeptState?
        package let environment: FlowEnvironment

        package init(target: ResponseTarget, state: KeptState?, environment: FlowEnvironment) {
            self.target = target
            self.state = state
            self.environment = environment
        }
    }

    /// What a seeded request is made from.
    package struct Seed: Sendable {
        package let seed: UInt64
        package let pki: TestPKI
        package let configuration: VerifierConfiguration
        package let responseMode: OpenID4VPSession.ResponseMode
    }

    /// The format.
    package let format: ResponseFormat
    /// Faults of this format's envelope beside the mdoc faults every format has (e.g. Apple's `wrongInfoHash`).
    package let transportFaults: Set<Fault>
    /// The code each transport fault must produce here, where it differs from `Fault.expectedCode`'s default.
    package let transportCodes: [Fault: ErrorCode]
    /// Whether deviceMac is refused outright (`device.auth_missing`) rather than checked.
    package let refusesDeviceMac: Bool
    /// The relying party's side of a seeded case.
    package let seededRequest: @Sendable (Seed) throws -> SeededRequest
    /// How the format's cases are written into a conformance corpus and checked by the catalogue.
    package let corpus: CorpusShape
    /// The kit's wallet for a request as a verifier published it; nil for a format without a request flow.
    package let answering: (@Sendable (PublishedRequest) throws -> ResponseTarget)?
    /// Whether that wallet needs the relying party's key, which the published request does not carry (Apple seals to
    /// the merchant key).
    package let answerNeedsRelyingPartyKey: Bool

    package init(format: ResponseFormat, transportFaults: Set<Fault>, transportCodes: [Fault: ErrorCode], refusesDeviceMac: Bool,
         corpus: CorpusShape, answerNeedsRelyingPartyKey: Bool = false,
         answering: (@Sendable (PublishedRequest) throws -> ResponseTarget)? = nil,
         seededRequest: @escaping @Sendable (Seed) throws -> SeededRequest) {
        self.format = format
        self.transportFaults = transportFaults
        self.transportCodes = transportCodes
        self.refusesDeviceMac = refusesDeviceMac
        self.corpus = corpus
        self.answerNeedsRelyingPartyKey = answerNeedsRelyingPartyKey
        self.answering = answering
        self.seededRequest = seededRequest
    }

    /// Every format's kit side, in `FormatRegistry` order.
    package static let all: [KitFormat] = FormatRegistry.descriptors.compactMap { descriptor in
        registered.first { $0.format == descriptor.format }
    }

    /// The kit side of each format; `KitFormatTests` checks that every registered format has one.
    static let registered: [KitFormat] = [.appleApp, .annexC, .deviceResponse, .openID4VP, .openID4VPRedirect]

    /// The kit side of `format`; nil for a format the kit cannot simulate.
    package static func of(_ format: ResponseFormat) -> KitFormat? { all.first { $0.format == format } }
}

/// The formats the kit simulates, as a value: the library's registry and each format's kit side, so that a test can
/// register a format of its own (`adding(_:_:)`) and run the kit's fault table through it.
package struct KitRegistry: Sendable {
    /// The library's formats: their descriptors and flows.
    package let formats: FormatRegistry
    /// The kit side of each format it simulates.
    package let kits: [KitFormat]

    /// The built-in formats.
    package static let standard = KitRegistry(formats: .standard, kits: KitFormat.all)

    package init(formats: FormatRegistry, kits: [KitFormat]) {
        self.formats = formats
        self.kits = kits
    }

    /// This registry with a format's descriptor and its kit side added.
    package func adding(_ descriptor: FormatDescriptor, _ kit: KitFormat) -> KitRegistry {
        KitRegistry(formats: formats.adding(descriptor), kits: kits + [kit])
    }

    /// The kit side of `format`; nil for a format this registry does not simulate.
    package func kit(_ format: ResponseFormat) -> KitFormat? { kits.first { $0.format == format } }
}

/// How one format's cases look in a conformance corpus: its files, its `mdocverify verify` options, its kept session
/// and the catalogue's format-specific rules.
package struct CorpusShape: Sendable {
    /// The answer's file name (e.g. `response.txt`).
    package let responseFile: String
    /// The relying party's private key's file name; nil when the format keeps none.
    package let privateKeyFile: String?
    /// The relying party's private key a seeded request keeps.
    package let privateKey: @Sendable (SimulatedRequest) -> PrivateKey?
    /// The `mdocverify verify <format>` options naming the answer and what it is checked against.
    package let verifyOptions: @Sendable (CorpusInputs) -> [String]
    /// Members `session.json` holds beside the kept state and the request (Apple: the merchant and team IDs).
    package let sessionValues: @Sendable (FlowEnvironment) -> [(String, JSONValue)]
    /// When the request itself binds the docType (OpenID4VP's DCQL query), the code another docType gets, with no
    /// request policy needed (the kit's request then queries the mDL only); nil: the request-policy check decides.
    package let requestDocTypeCode: ErrorCode?
    /// The other format whose transcript the `transcript-other-format` attack signs over, as the summary names it.
    package let otherTranscriptName: String
    /// Attack cases only this format has.
    let extraAttacks: @Sendable (inout ConformanceCatalog.CaseList) -> Void
    /// Whether the format carries the corpus's algorithm and encoding cases (issuer curves, x5chain as an array,
    /// several roots, deviceMac with a reader key): they are about the mdoc, so one format without an envelope holds them.
    let carriesEncodingCases: Bool

    init(responseFile: String, privateKeyFile: String? = nil, privateKey: @escaping @Sendable (SimulatedRequest) -> PrivateKey? = { _ in nil },
         verifyOptions: @escaping @Sendable (CorpusInputs) -> [String],
         sessionValues: @escaping @Sendable (FlowEnvironment) -> [(String, JSONValue)] = { _ in [] },
         requestDocTypeCode: ErrorCode? = nil, otherTranscriptName: String = "Annex C's", carriesEncodingCases: Bool = false,
         extraAttacks: @escaping @Sendable (inout ConformanceCatalog.CaseList) -> Void = { _ in }) {
        self.responseFile = responseFile
        self.privateKeyFile = privateKeyFile
        self.privateKey = privateKey
        self.verifyOptions = verifyOptions
        self.sessionValues = sessionValues
        self.requestDocTypeCode = requestDocTypeCode
        self.otherTranscriptName = otherTranscriptName
        self.extraAttacks = extraAttacks
        self.carriesEncodingCases = carriesEncodingCases
    }

    /// The shape of a format with a request flow and nothing of its own: one answer file, the kept session.
    package static func session(responseFile: String) -> CorpusShape {
        CorpusShape(responseFile: responseFile, verifyOptions: sessionOptions)
    }

    /// The options of a format with a request flow: the answer and the kept session.
    package static func sessionOptions(_ inputs: CorpusInputs) -> [String] {
        ["--response", inputs.response, "--session", inputs.session ?? ""]
    }
}

/// A request as a verifier published it, as the kit's wallet reads it: the verifier's values by the kit's names for
/// them (`nonce`, `encryptionInfo`, `protocol`, `data`, `authorizationRequest`), the page's origin, the relying
/// party's Apple values (which no request carries), and how the wallet fetches a request object by reference.
package struct PublishedRequest {
    /// How the wallet fetches a request object by reference: POSTs `wallet_nonce` to the `request_uri` and gives the
    /// answer's body (OpenID4VP 1.0 §5.10).
    package typealias Fetch = (_ requestURI: String, _ walletNonce: String) throws -> String

    /// The value named `name`, or a thrown description of what is missing.
    package let value: (String) throws -> JSONValue
    /// The wallet's fetch of a request object; nil where the target cannot fetch one.
    package let fetch: Fetch?
    /// The origin of the page that made the request.
    package let origin: String
    /// The relying party's Apple merchant key, merchant ID and team ID.
    package let merchantKey: PublicKey?
    package let merchantID: String
    package let teamID: String

    /// Creates the view of a published request.
    package init(value: @escaping (String) throws -> JSONValue, fetch: Fetch? = nil, origin: String, merchantKey: PublicKey?, merchantID: String,
                 teamID: String) {
        self.value = value
        self.fetch = fetch
        self.origin = origin
        self.merchantKey = merchantKey
        self.merchantID = merchantID
        self.teamID = teamID
    }

    /// The value named `name` as text, or a `SimulationError` naming it.
    package func text(_ name: String) throws -> String {
        guard let text = try value(name).string else { throw SimulationError.invalidOption("the request's \(name) is not text") }
        return text
    }
}
