import CryptoCore
import Foundation
import Mdoc
import MdocModel

/// What to put in a simulated document and how to encode it.
public struct SimulationOptions: Sendable {
    /// How the x5chain header of issuerAuth carries the certificates.
    public enum X5ChainForm: String, Sendable, CaseIterable {
        /// `33: bstr` — the Document Signer alone (what Apple sends).
        case bstr
        /// `33: [DS, IACA]` — an array, leaf first.
        case array
    }

    /// How the device authenticates the response.
    public enum DeviceAuthMode: String, Sendable, CaseIterable {
        /// deviceSignature: a detached COSE_Sign1 by the device key.
        case signature
        /// deviceMac keyed with the reader's key (ISO 18013-5 proximity; Apple refuses it).
        case mac
    }

    /// The docType of the Document; the mDL by default.
    public var docType: String = DocType.mDL
    /// Disclosed elements; nil discloses every element of the content. The MSO always holds digests for all
    /// elements of the content plus decoys.
    public var elements: [ElementID]?
    /// The issuer's data; nil uses `SampleContent` for `docType`.
    public var content: [DataElement]?
    /// The faults to build into the response; a repeated fault counts once.
    public var faults: [Fault] = []
    /// Verification time: certificates and the MSO are made valid around it.
    public var time: Date
    /// The digest algorithm of the MSO's value digests; SHA-256 by default.
    public var digestAlgorithm: DigestAlgorithm = .sha256
    /// How x5chain carries the chain; the Document Signer alone by default.
    public var x5chain: X5ChainForm = .bstr
    /// The `alg` issuerAuth's protected header names and the hash it is signed with, whatever the Document Signer's
    /// curve; nil: the algorithm ISO/IEC 18013-5 pairs with that curve. ES384 with a P-256 key makes a valid
    /// signature under an algorithm the curve is not paired with, which a verifier must refuse.
    public var issuerAlgorithm: (label: Int64, digest: DigestAlgorithm)?
    /// The curve of the device key; P-256 by default.
    public var deviceCurve: Curve = .p256
    /// deviceSignature or deviceMac; deviceSignature by default.
    public var deviceAuthentication: DeviceAuthMode = .signature
    /// Elements in DeviceSigned (need `keyAuthorizations` to verify).
    public var deviceSignedElements: [DataElement] = []
    /// The MSO's keyAuthorizations, needed for `deviceSignedElements` to verify; nil leaves them out.
    public var keyAuthorizations: MobileSecurityObjectBuilder.KeyAuthorizations?
    /// Random digests added to every namespace of the MSO, as issuers do to hide the element count.
    public var decoysPerNameSpace = 3
    /// Bytes of `random` per IssuerSignedItem (at least 16).
    public var saltLength = 32
    /// Include `validityInfo.expectedUpdate`.
    public var expectedUpdate = true
    /// What the relying party asked for, handed to the verifier by `SimulatedCase` (nil: no policy check).
    public var request: RequestPolicy?
    /// The MSO's `status` reference to a status list the kit issues with the response (`SimulatedRevocation`);
    /// nil leaves `status` out of the MSO.
    public var statusList: StatusReference? = StatusReference()
    /// The MSO's `identifier_list` reference, beside `statusList` (or alone), to an identifier list the kit issues with
    /// the response; nil (the default) leaves it out. The `identifier-list-revoked` fault adds one when it is nil.
    public var identifierList: IdentifierReference?
    /// The Document Signer's CRL distribution point (nil: the kit's unreachable default), e.g. a
    /// `RevocationListServer` URL serving `SimulatedRevocation.crl`.
    public var crlDistributionPoint: String?

    /// Where the simulated status list is published and the document's index in it.
    public struct StatusReference: Sendable, Equatable {
        /// The status list's URI: the MSO names it, and the token's `sub` must match it.
        public var uri: String
        /// The document's index in the status list.
        public var index: UInt64
        /// The `certificate` the MSO's `status_list` names (the one the list's signer chains to); nil leaves it out.
        public var certificate: Certificate?

        /// Creates a status reference; the defaults name the kit's example list and index 17, and no certificate.
        public init(uri: String = "https://status.mdoctesting.example/lists/1", index: UInt64 = 17, certificate: Certificate? = nil) {
            self.uri = uri
            self.index = index
            self.certificate = certificate
        }
    }

    /// Where the simulated identifier list is published and the document's id in it.
    public struct IdentifierReference: Sendable, Equatable {
        /// The identifier list's URI: the MSO names it, and the token's `sub` must match it.
        public var uri: String
        /// The document's id in the identifier list.
        public var id: [UInt8]

        /// Creates an identifier reference; the defaults name the kit's example list and the id "mdoctesting-document".
        public init(uri: String = "https://status.mdoctesting.example/identifiers/1", id: [UInt8] = Array("mdoctesting-document".utf8)) {
            self.uri = uri
            self.id = id
        }
    }

    /// The identifier list the MSO names: `identifierList`, or for the `identifier-list-revoked` fault one at the
    /// status list's URI + "-identifiers" (so a list server that publishes the status list publishes it too).
    func identifierListReference(faults: Set<Fault>) -> IdentifierReference? {
        if let identifierList { return identifierList }
        guard faults.contains(.identifierListRevoked) else { return nil }
        return statusList.map { IdentifierReference(uri: $0.uri + "-identifiers") } ?? IdentifierReference()
    }

    /// Creates default options for verification at `time` (rounded down to whole seconds) with `faults`.
    public init(time: Date = Date(), faults: [Fault] = []) {
        self.time = Date(timeIntervalSince1970: time.timeIntervalSince1970.rounded(.down))
        self.faults = faults
    }
}

/// The relying party's side of one Apple in-app request: the merchant's public key and the out-of-band values
/// of the session transcript.
public struct AppleAppRequest: Sendable {
    /// The merchant's public key the response is sealed to (P-256).
    public var merchantKey: PublicKey
    /// The request nonce.
    public var nonce: [UInt8]
    /// The merchant identifier.
    public var merchantID: String
    /// The merchant's Apple developer team identifier.
    public var teamID: String

    /// Creates a request from the merchant's public key and the transcript values.
    public init(merchantKey: PublicKey, nonce: [UInt8], merchantID: String, teamID: String) {
        self.merchantKey = merchantKey
        self.nonce = nonce
        self.merchantID = merchantID
        self.teamID = teamID
    }

    /// The Apple in-app session transcript of this request.
    public var transcript: SessionTranscript {
        AppleEnvelopeBuilder.transcript(nonce: nonce, merchantID: merchantID, teamID: teamID, merchantKey: merchantKey)
    }
}
