import CryptoCore
import Foundation
import Mdoc
import MdocModel

/// A built response with everything needed to verify it.
public struct SimulatedResponse: Sendable {
    /// The response format.
    public let format: ResponseFormat
    /// The docType of the Document in the response.
    public let docType: String
    /// What a relying party receives: the Apple envelope (raw CBOR), the UTF-8 bytes of the Annex C
    /// base64url string or of the OpenID4VP result JSON, or the bare DeviceResponse.
    public let bytes: [UInt8]
    /// The answer as text, for a format whose wallet answers in text (the Annex C string, the OpenID4VP result JSON);
    /// nil for one that answers in bytes. Each format's wallet names it (`annexCResponse`, `openID4VPResponse`).
    public let textAnswer: String?
    /// The DeviceResponse inside (the plaintext for the encrypted formats).
    public let deviceResponse: [UInt8]
    /// The relying party's transcript, to verify with.
    public let transcript: SessionTranscript
    /// The reader key to give the verifier for deviceMac (nil with deviceSignature, or when a fault withholds it).
    public let readerKey: PrivateKey?
    /// The faults built into the response, each once, in the order given.
    public let faults: [Fault]
    /// The outcome the faults predict, with the default certificate profile.
    public let expected: ExpectedOutcome
    /// Verification time the response was made for.
    public let time: Date
    /// What the relying party asked for, to pass to the verifier as policy; nil for no policy check.
    public let request: RequestPolicy?
    /// The Document Signer certificate that signed issuerAuth.
    public let documentSigner: Certificate
    /// The CA between the IACA and the document signer (`intermediateCA` fault), nil otherwise.
    public let intermediateCA: Certificate?
    /// The elements disclosed in IssuerSigned.
    public let disclosed: [ElementID]
    /// The IACA's CRL and the status list the MSO names, to verify with (`revocation.source`).
    public let revocation: SimulatedRevocation
}
