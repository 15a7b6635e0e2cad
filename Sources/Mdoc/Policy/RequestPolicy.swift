/// What the relying party asked for: per docType, namespace → element → intent to retain
/// (the shape of ISO/IEC 18013-5 `ItemsRequest`, §8.3.2.1.2.1).
public struct RequestPolicy: Sendable, Equatable, Codable {
    public struct DocumentRequest: Sendable, Equatable, Codable {
        public var docType: String
        /// namespace → element identifier → intent to retain.
        public var nameSpaces: [String: [String: Bool]]

        public init(docType: String, nameSpaces: [String: [String: Bool]]) {
            self.docType = docType
            self.nameSpaces = nameSpaces
        }
    }

    public var documents: [DocumentRequest]

    public init(documents: [DocumentRequest]) {
        self.documents = documents
    }

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
