import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import Verifier

/// One case of the conformance corpus: a response for one format, what it exercises, and the verdict any verifier
/// must reach on it (and, for this implementation, the error code).
///
/// `ConformanceCorpus.cases` lists them; `ConformanceCorpus.build(_:)` makes a case's files.
public struct ConformanceCase: Sendable, Identifiable {
    /// What the case is.
    public enum Kind: String, Sendable, CaseIterable {
        /// A correct response that must be accepted.
        case positive
        /// A response with one of the kit's named faults (`Fault`).
        case fault
        /// A response built for an attack class found in reviews (over-disclosure, type confusion, transcript mix-ups,
        /// replay).
        case attack
    }

    /// The verdict a verifier must reach.
    public enum Verdict: String, Sendable, CaseIterable {
        /// The response must verify.
        case accept
        /// The response must be refused.
        case reject
    }

    /// What a verifier must do for the case to apply to it; a target that does not do it reports the case as not
    /// applicable.
    public enum Requirement: String, Sendable, CaseIterable, Comparable {
        /// The verifier checks the relying party's request (returned docTypes and elements must be a subset).
        case requestPolicy = "request-policy"
        /// The verifier checks revocation from the CRL and status list files given (unknown status rejects).
        case revocation
        /// The verifier remembers consumed requests (only a server can: the same answer is posted twice).
        case state
        /// The verifier holds the Document Signer to ISO/IEC 18013-5 Annex B's profile as written: a mandatory
        /// extension missing (key usage) rejects. This project's default profile only warns there; `--profile strict`
        /// rejects.
        case certificateProfile = "certificate-profile"

        /// Orders requirements by name.
        public static func < (lhs: Requirement, rhs: Requirement) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// `format/name`, e.g. `annex-c/fault/mso-expired`; also the case's folder in the corpus.
    public let id: String
    /// The response format.
    public let format: ResponseFormat
    /// Positive control, kit fault or attack.
    public let kind: Kind
    /// The standard clause (or relying-party rule) the case exercises.
    public let clause: String
    /// One sentence: what is wrong with the response (or that nothing is).
    public let summary: String
    /// The outcome this implementation must produce (the codes are ours; other verifiers need only the verdict).
    public let expected: ExpectedOutcome
    /// The outcome when the relying party always checks a request (a server): `requestPolicy(for:)`'s request makes
    /// a repeated Document also `policy.doctype_repeated`.
    public var expectedWithRequest: ExpectedOutcome {
        guard fault == .duplicateDocument else { return expected }
        return .rejectedWithin([.responseMalformed, .policyDocTypeRepeated])
    }
    /// What the verifier must do for the case to apply.
    public let requires: Set<Requirement>
    /// The fault the case is built with, for `Kind.fault`.
    public let fault: Fault?

    let recipe: Recipe

    /// The verdict a verifier must reach.
    public var verdict: Verdict { expected.isVerified ? .accept : .reject }

    /// Whether the case posts one correct answer twice to the same request (replay): the first must be accepted, the
    /// second is the one judged.
    public var postsTwice: Bool { recipe.replay }
}

/// How a case's response is built, beside the faults: disclosure, request, content and transcript changes.
struct Recipe: Sendable {
    /// Which transcript the device signs, when not the relying party's.
    enum Transcript: Sendable {
        /// The relying party's own.
        case own
        /// Another format's transcript for the same request values.
        case otherFormat
        /// OpenID4VP: the draft 24 DC API handover instead of 1.0's.
        case openID4VPDraft24
    }

    var faults: [Fault] = []
    var docType = DocType.mDL
    var elements: [ElementID] = Recipe.standardElements
    var request: RequestPolicy?
    var statusList = false
    /// Replaces element values of the issuer's content (namespace:identifier → value).
    var contentOverrides: [ElementID: CBORValue] = [:]
    var transcript: Transcript = .own
    /// The same answer is posted a second time (needs a relying party that keeps state).
    var replay = false
    /// A variant of the format's wallet by name (`WalletSide.variant(_:)`): a flow's own attack, such as an answer
    /// with another `state`.
    var walletVariant: String?
    /// The IACA the Document chains to.
    var issuer: Issuer = .corpus
    /// The case's trust file lists other roots before the issuing one.
    var severalRoots = false
    /// How issuerAuth's x5chain carries the chain.
    var x5chain: SimulationOptions.X5ChainForm = .bstr
    /// issuerAuth's alg label and hash, when not those of the issuer's curve.
    var issuerAlgorithm: (label: Int64, digest: DigestAlgorithm)?
    /// deviceMac instead of deviceSignature, and which reader key the case gives the verifier.
    var deviceMac: DeviceMac?

    /// The IACA a case's Document chains to.
    enum Issuer: Sendable, Hashable {
        /// The corpus's P-256 IACA.
        case corpus
        /// An IACA and Document Signer on this curve, signing with the algorithm ISO/IEC 18013-5 pairs with it.
        case curve(Curve)
        /// A P-256 IACA that expired the day before the verification time; its Document Signer is still valid.
        case expiredAnchor

        /// The curves the corpus has issuers for, beside the corpus's P-256.
        static let otherCurves: [Curve] = [.p384, .p521, .ed25519, .brainpoolP256r1, .brainpoolP320r1, .brainpoolP384r1, .brainpoolP512r1]
    }

    /// The reader key a deviceMac case gives the verifier (`files.readerKey`).
    enum DeviceMac: Sendable {
        /// The key the MAC was made with.
        case readerKey
        /// Another reader's key: the MAC cannot verify with it.
        case otherReaderKey
    }

    /// What a positive case discloses: a handful of mDL elements (no portrait, to keep the corpus small).
    static let standardElements = ["family_name", "given_name", "birth_date", "issuing_country", "document_number", "age_over_21"]
        .map { ElementID(NameSpace.mDL, $0) }
}
