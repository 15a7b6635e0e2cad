/// What the relying party asked for: per docType, namespace → element → intent to retain
/// (the shape of ISO/IEC 18013-5 `ItemsRequest`, §8.3.2.1.2.1).
public struct RequestPolicy: Sendable, Equatable, Codable {
    /// What the relying party asks of one docType.
    public struct DocumentRequest: Sendable, Equatable, Codable {
        /// The requested document type, e.g. `org.iso.18013.5.1.mDL`.
        public var docType: String
        /// The requested elements: namespace → element identifier → intent to retain.
        public var nameSpaces: [String: [String: Bool]]

        /// Creates the request for one docType.
        public init(docType: String, nameSpaces: [String: [String: Bool]]) {
            self.docType = docType
            self.nameSpaces = nameSpaces
        }
    }

    /// The requested documents, each docType at most once (`validate(_:)` checks this).
    public var documents: [DocumentRequest]
    /// The issuer allow-list: X.509 key identifiers of the anchors whose documents this request accepts (see
    /// `IssuerIdentifiers`); empty accepts any trusted issuer. Requests offer it to the wallet narrowed per docType
    /// (`IssuerIdentifiers.narrowed(_:in:)`) and `policy.issuer` enforces it. In JSON, `allowedIssuers`: an array of
    /// base64url strings (colon-separated hex is read too), left out when empty.
    public var allowedIssuers: [[UInt8]]

    /// Creates a request for these documents, from any trusted issuer unless `allowedIssuers` names some.
    public init(documents: [DocumentRequest], allowedIssuers: [[UInt8]] = []) {
        self.documents = documents
        self.allowedIssuers = allowedIssuers
    }

    private enum CodingKeys: String, CodingKey {
        case documents, allowedIssuers
    }

    /// Decodes `{"documents": [...], "allowedIssuers": [...]}`; an allow-list entry that is neither base64url nor
    /// colon-separated hex is a `DecodingError.dataCorrupted` at its index whose description names the forms.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        documents = try container.decode([DocumentRequest].self, forKey: .documents)
        let texts = try container.decodeIfPresent([String].self, forKey: .allowedIssuers) ?? []
        do {
            allowedIssuers = try Self.allowedIssuers(parsing: texts)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: container.codingPath + [CodingKeys.allowedIssuers], debugDescription: error.message))
        }
    }

    /// Encodes the documents, and the allow-list as base64url when it names any issuer.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(documents, forKey: .documents)
        if !allowedIssuers.isEmpty { try container.encode(allowedIssuers.map { Base64URL.encode($0) }, forKey: .allowedIssuers) }
    }

    /// The allow-list from its JSON text entries (`IssuerIdentifiers.parse(_:)`).
    ///
    /// - Throws: `input.malformed` naming the first entry that is neither base64url nor colon-separated hex (never
    ///   echoing it).
    public static func allowedIssuers(parsing texts: [String]) throws(VerificationError) -> [[UInt8]] {
        var identifiers: [[UInt8]] = []
        identifiers.reserveCapacity(min(texts.count, IssuerIdentifiers.maxCount + 1))
        for (index, text) in texts.enumerated() {
            guard let identifier = IssuerIdentifiers.parse(text) else {
                throw VerificationError(.inputMalformed, "allowedIssuers[\(index)] is neither base64url nor hex with a colon between "
                                        + "bytes (3A:F2:…); give each issuer's key identifier in one of those forms")
            }
            identifiers.append(identifier)
        }
        return identifiers
    }

    /// The request for `docType`, or nil when it was not requested.
    public func request(for docType: String) -> DocumentRequest? {
        documents.first { $0.docType == docType }
    }
}

extension RequestPolicy.DocumentRequest {
    /// Intent to retain for a requested element, or nil if it was not requested. Age questions answered from
    /// `age_in_years` are resolved by `AgeDisclosure`.
    package func intentToRetain(nameSpace: String, element: String) -> Bool? {
        nameSpaces[nameSpace]?[element]
    }
}

extension RequestPolicy {
    /// The policy as session.json and the corpus's request.json hold it: `allowedIssuers` (base64url) when it names
    /// any, then the documents; keys sorted.
    package var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if !allowedIssuers.isEmpty { members.append(("allowedIssuers", .array(allowedIssuers.map { .string(Base64URL.encode($0)) }))) }
        members.append(("documents", documentsJSON))
        return .object(members)
    }

    /// The documents in order, each `{"docType", "nameSpaces"}` with namespaces and elements sorted.
    package var documentsJSON: JSONValue {
        .array(documents.map { document in
            .object([
                ("docType", .string(document.docType)),
                ("nameSpaces", .object(document.nameSpaces.sorted { $0.key < $1.key }.map { nameSpace, elements in
                    (nameSpace, .object(elements.sorted { $0.key < $1.key }.map { ($0.key, .bool($0.value)) }))
                })),
            ])
        })
    }
}
