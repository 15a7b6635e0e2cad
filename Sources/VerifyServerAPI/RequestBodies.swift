import MdocModel

/// `POST /v1/requests` and `POST /v1/transactions` body.
package struct CreateRequestBody: Decodable, Sendable {
    package var format: String
    package var documents: [RequestPolicy.DocumentRequest]
    package var origin: String?
    /// The issuer allow-list: key identifiers, base64url or colon-separated hex (`RequestPolicy.allowedIssuers`).
    package var allowedIssuers: [String]?
    /// For a format answered by reference on the same device: the page the wallet returns the user to, with the
    /// `response_code` the backend reads the result with.
    package var redirectUri: String?
    /// A transaction's own webhook destination, instead of the configured `webhookURL`.
    package var webhookURL: String?

    package init(format: String, documents: [RequestPolicy.DocumentRequest], origin: String?, allowedIssuers: [String]? = nil,
                 redirectUri: String? = nil) {
        self.format = format
        self.documents = documents
        self.origin = origin
        self.allowedIssuers = allowedIssuers
        self.redirectUri = redirectUri
    }

    private enum CodingKeys: String, CodingKey { case format, documents, origin, allowedIssuers, redirectUri, webhookURL }

    /// `allowedIssuers` may be absent but not null (400 `input.malformed`): a strict API takes one spelling of
    /// "any trusted issuer", the absent field or `[]`.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(String.self, forKey: .format)
        documents = try container.decode([RequestPolicy.DocumentRequest].self, forKey: .documents)
        origin = try container.decodeIfPresent(String.self, forKey: .origin)
        allowedIssuers = container.contains(.allowedIssuers) ? try container.decode([String].self, forKey: .allowedIssuers) : nil
        redirectUri = try container.decodeIfPresent(String.self, forKey: .redirectUri)
        webhookURL = try container.decodeIfPresent(String.self, forKey: .webhookURL)
    }

    /// The request policy: at least one document, each with a docType and at least one namespace with at least one
    /// element, within `RequestPolicyLimits.default`, and an issuer allow-list within Apple's bounds.
    package func policy() throws(VerificationError) -> RequestPolicy {
        let policy = RequestPolicy(documents: documents, allowedIssuers: try RequestPolicy.allowedIssuers(parsing: allowedIssuers ?? []))
        try policy.validate()
        return policy
    }
}

/// `POST /v1/verify` body.
package struct VerifyRequestBody: Decodable, Sendable {
    package var requestId: String
    package var response: String

    /// The body's own rule beyond its JSON shape: a request ID of 1 to 128 characters (Unicode scalars, as the
    /// OpenAPI document's `maxLength` counts them).
    package func validate() throws(VerificationError) {
        guard !requestId.isEmpty, requestId.unicodeScalars.count <= 128 else {
            throw VerificationError(.inputMalformed, "requestId must be 1 to 128 characters")
        }
    }
}

/// `POST /v1/inspect` body (the inspector): a response as pasted, and what verifying it needs. Binary fields are
/// hex or base64. Apple: `merchantId`, `teamId` (default: the server's) and `nonce`, or a `requestId`; Annex C and
/// OpenID4VP: the `requestId` of a request the server created (read, never consumed); a bare DeviceResponse: its
/// `sessionTranscript`.
package struct InspectRequestBody: Decodable, Sendable {
    package var format: String
    package var response: String
    package var requestId: String?
    package var merchantId: String?
    package var teamId: String?
    package var nonce: String?
    package var sessionTranscript: String?
    /// device-response: the reader's ephemeral private key (PEM) that checks deviceMac; never logged or stored.
    package var readerPrivateKey: String?
}
