import CryptoCore
import MdocModel

/// An ISO/IEC TS 18013-7 Annex C request for
/// `navigator.credentials.get({digital: {requests: [{protocol: "org-iso-mdoc", data}]}})`, and what the
/// server keeps to verify the answer.
public struct AnnexCWebRequest: Sendable {
    /// The Digital Credentials API protocol identifier of Annex C requests, `org-iso-mdoc`.
    public static let protocolIdentifier = "org-iso-mdoc"

    /// The DeviceRequest CBOR, base64url without padding.
    public let deviceRequest: String
    /// The EncryptionInfo CBOR, base64url without padding; equal to `session.encryptionInfo`.
    public let encryptionInfo: String
    /// What the server keeps to verify the answer; store it server-side and use it once.
    public let session: AnnexCSession

    /// The `data` member: `{"deviceRequest": …, "encryptionInfo": …}`.
    public var data: JSONValue {
        .object([("deviceRequest", .string(deviceRequest)), ("encryptionInfo", .string(encryptionInfo))])
    }

    /// The whole argument of navigator.credentials.get, `mediation: "required"` as in Apple's article.
    public var credentialRequestOptions: JSONValue {
        .object([
            ("mediation", .string("required")),
            ("digital", .object([("requests", .array([.object([("protocol", .string(Self.protocolIdentifier)), ("data", data)])]))])),
        ])
    }

    /// Creates a request: a fresh P-256 recipient key and a fresh 32-byte nonce, EncryptionInfo, and a
    /// DeviceRequest with one ItemsRequest per requested docType (intent to retain as given).
    ///
    /// With a `reader` identity the request is signed (ISO/IEC 18013-5 §9.1.4) over the Annex C transcript of
    /// this EncryptionInfo and `origin`: version 1.1 puts one COSE_Sign1 in `readerAuthAll` over
    /// ReaderAuthenticationAll (the form of Apple's sample request; Apple Wallet requires signed requests); version 1.0
    /// puts a `readerAuth` in every DocRequest over its ReaderAuthentication.
    ///
    /// `issuerIdentifiers` (docType → identifiers, see `IssuerIdentifiers`) go into each ItemsRequest's `requestInfo`.
    ///
    /// Throws `input.malformed` for an origin that is not a serialized web origin or an empty request.
    public static func create(origin: String, request: RequestPolicy, reader: ReaderIdentity? = nil,
                              version: DeviceRequestVersion = .v1_1,
                              issuerIdentifiers: [String: [[UInt8]]] = [:]) throws(VerificationError) -> AnnexCWebRequest {
        try WebOrigin.validate(origin)
        guard !request.documents.isEmpty,
              request.documents.allSatisfy({ !$0.docType.isEmpty && $0.nameSpaces.values.contains { !$0.isEmpty } })
        else {
            throw VerificationError(.inputMalformed, "the request must name at least one docType with at least one element")
        }
        let key: PrivateKey
        do {
            key = try PrivateKey.generate(.p256)
        } catch {
            throw VerificationError(.inputMalformed, "cannot generate a P-256 recipient key: \(error)")
        }
        let encryptionInfo = AnnexCEncryptionInfo(nonce: SecureRandom.bytes(32), recipientPublicKey: key.publicKey).base64URL
        let session = AnnexCSession(privateKey: key, encryptionInfo: encryptionInfo, origin: origin, request: request)
        let itemsRequests = request.documents.map { ItemsRequest($0, issuerIdentifiers: issuerIdentifiers[$0.docType] ?? []) }
        let deviceRequest: DeviceRequest
        do {
            deviceRequest = try build(itemsRequests, version: version, reader: reader, transcript: session.transcript)
        } catch let error as VerificationError {
            throw error
        } catch {
            throw VerificationError(.inputMalformed, "cannot sign ReaderAuth: \(error)")
        }
        return AnnexCWebRequest(deviceRequest: Base64URL.encode(deviceRequest.encoded), encryptionInfo: encryptionInfo, session: session)
    }

    private static func build(_ itemsRequests: [ItemsRequest], version: DeviceRequestVersion, reader: ReaderIdentity?,
                              transcript: SessionTranscript) throws -> DeviceRequest {
        let unsigned = itemsRequests.map { DeviceRequest.DocRequest(itemsRequest: $0) }
        guard let reader else { return DeviceRequest(version: version, docRequests: unsigned) }
        switch version {
        case .v1_0:
            let signed = try unsigned.map { request in
                let toBeSigned = ReaderAuthentication.bytes(transcript: transcript, itemsRequestBytes: request.itemsRequestBytes)
                return DeviceRequest.DocRequest(itemsRequest: request.itemsRequest,
                                                readerAuth: try ReaderAuthentication.sign(toBeSigned, with: reader))
            }
            return DeviceRequest(version: version, docRequests: signed)
        case .v1_1:
            let toBeSigned = ReaderAuthentication.allBytes(
                transcript: transcript, itemsRequestBytes: unsigned.map(\.itemsRequestBytes), deviceRequestInfoBytes: nil)
            return DeviceRequest(version: version, docRequests: unsigned,
                                 readerAuthAll: [try ReaderAuthentication.sign(toBeSigned, with: reader)])
        }
    }
}
