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
    /// `age_over_NN` may be answered with `age_in_years`: Apple's framework silently falls back when the
    /// issuer did not include the requested `age_over_NN` (PKIdentityElement.age(atLeast:)).
    static let ageFallbackElement = "age_in_years"

    func isAgeOverRequest(_ identifier: String) -> Bool {
        guard identifier.hasPrefix("age_over_") else { return false }
        let digits = identifier.dropFirst("age_over_".count)
        return !digits.isEmpty && digits.allSatisfy(\.isNumber)
    }

    /// Intent to retain for a returned element, or nil if it was not requested (directly or as an age fallback).
    func intentToRetain(nameSpace: String, element: String) -> Bool? {
        guard let elements = nameSpaces[nameSpace] else { return nil }
        if let intent = elements[element] { return intent }
        if element == Self.ageFallbackElement {
            let ageRequests = elements.filter { isAgeOverRequest($0.key) }
            if !ageRequests.isEmpty { return ageRequests.values.contains(true) }
        }
        return nil
    }
}
