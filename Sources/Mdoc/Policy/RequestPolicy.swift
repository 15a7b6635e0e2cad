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

    /// Creates a request for these documents.
    public init(documents: [DocumentRequest]) {
        self.documents = documents
    }

    /// The request for `docType`, or nil when it was not requested.
    public func request(for docType: String) -> DocumentRequest? {
        documents.first { $0.docType == docType }
    }
}

extension RequestPolicy.DocumentRequest {
    /// Intent to retain for a requested element, or nil if it was not requested. Age questions answered from
    /// `age_in_years` are resolved by `AgeDisclosure`.
    func intentToRetain(nameSpace: String, element: String) -> Bool? {
        nameSpaces[nameSpace]?[element]
    }
}
