import CBOR

/// The data elements a reader requests from one document.
///
/// `ItemsRequest` (ISO/IEC 18013-5 §8.3.2.1.2.1):
/// `{"docType": tstr, "nameSpaces": {+ NameSpace => {+ DataElementIdentifier => IntentToRetain}}, ? "requestInfo"}`.
/// Namespaces and elements keep their order, so an encoding is reproducible byte for byte.
public struct ItemsRequest: Sendable, Equatable {
    /// One requested data element.
    public struct Element: Sendable, Equatable {
        /// The data element identifier, e.g. `family_name`.
        public var identifier: String
        /// Whether the reader intends to retain the element's value (`IntentToRetain`).
        public var intentToRetain: Bool

        /// Creates a requested element.
        public init(_ identifier: String, intentToRetain: Bool) {
            self.identifier = identifier
            self.intentToRetain = intentToRetain
        }
    }

    /// The requested elements of one namespace.
    public struct NameSpace: Sendable, Equatable {
        /// The namespace, e.g. `org.iso.18013.5.1`.
        public var name: String
        /// The requested elements, in encoding order.
        public var elements: [Element]

        /// Creates a namespace entry.
        public init(_ name: String, elements: [Element]) {
            self.name = name
            self.elements = elements
        }
    }

    /// The requested document type, e.g. `org.iso.18013.5.1.mDL`.
    public var docType: String
    /// The requested namespaces, in encoding order.
    public var nameSpaces: [NameSpace]
    /// The authority key identifiers of the document signer chains the reader accepts, sent as
    /// `requestInfo.issuerIdentifiers`.
    ///
    /// DocRequestInfo, ISO/IEC 18013-5 second edition; see `IssuerIdentifiers`. Empty sends no `requestInfo`.
    public var issuerIdentifiers: [[UInt8]]

    /// Creates a request; namespaces and elements are encoded in the order given.
    public init(docType: String, nameSpaces: [NameSpace], issuerIdentifiers: [[UInt8]] = []) {
        self.docType = docType
        self.nameSpaces = nameSpaces
        self.issuerIdentifiers = issuerIdentifiers
    }

    /// Creates a request from a request policy entry, with namespaces and elements sorted by name (a policy holds
    /// dictionaries).
    public init(_ request: RequestPolicy.DocumentRequest, issuerIdentifiers: [[UInt8]] = []) {
        self.docType = request.docType
        self.issuerIdentifiers = issuerIdentifiers
        self.nameSpaces = request.nameSpaces.keys.sorted().map { name in
            let elements = request.nameSpaces[name] ?? [:]
            return NameSpace(name, elements: elements.keys.sorted().map { Element($0, intentToRetain: elements[$0] ?? false) })
        }
    }

    /// The same request as a policy entry, for checking the response against it.
    public var policy: RequestPolicy.DocumentRequest {
        var map: [String: [String: Bool]] = [:]
        for nameSpace in nameSpaces {
            for element in nameSpace.elements { map[nameSpace.name, default: [:]][element.identifier] = element.intentToRetain }
        }
        return RequestPolicy.DocumentRequest(docType: docType, nameSpaces: map)
    }

    /// The ItemsRequest map as CBOR, in preferred serialization and the stored order.
    public var encoded: [UInt8] {
        var pairs: [(CBORValue, CBORValue)] = [
            (.text("docType"), .text(docType)),
            (.text("nameSpaces"), .map(nameSpaces.map { nameSpace in
                (.text(nameSpace.name), .map(nameSpace.elements.map { (.text($0.identifier), .bool($0.intentToRetain)) }))
            })),
        ]
        if !issuerIdentifiers.isEmpty {
            pairs.append((.text("requestInfo"), .map([(.text("issuerIdentifiers"), .array(issuerIdentifiers.map { .bytes($0) }))])))
        }
        return CBOREncoder.encode(.map(pairs))
    }

    /// The request wrapped as a DocRequest carries it: `ItemsRequestBytes = #6.24(bstr .cbor ItemsRequest)`.
    public var taggedBytes: [UInt8] { CBOREncoder.encode(.tagged(24, .bytes(encoded))) }

    /// Parses a decoded ItemsRequest map. Of `requestInfo` only `issuerIdentifiers` is read (an array of bstr);
    /// its other entries and unknown keys are ignored.
    ///
    /// - Throws: `input.malformed` when anything else does not fit the CDDL.
    public init(decoding item: CBORItem) throws(VerificationError) {
        func malformed(_ what: String) -> VerificationError { VerificationError(.inputMalformed, "ItemsRequest: \(what)") }
        guard item.isMap else { throw malformed("not a map") }
        guard let docType = item["docType"]?.text else { throw malformed("no text `docType`") }
        guard let nameSpacesMap = item["nameSpaces"]?.map else { throw malformed("no `nameSpaces` map") }
        var nameSpaces: [NameSpace] = []
        for entry in nameSpacesMap {
            guard let name = entry.key.text, let elementsMap = entry.value.map else {
                throw malformed("nameSpaces is not NameSpace → {element → bool}")
            }
            var elements: [Element] = []
            for element in elementsMap {
                guard let identifier = element.key.text, let intent = element.value.bool else {
                    throw malformed("element \(name)/… is not identifier → intent to retain (bool)")
                }
                elements.append(Element(identifier, intentToRetain: intent))
            }
            nameSpaces.append(NameSpace(name, elements: elements))
        }
        var issuerIdentifiers: [[UInt8]] = []
        if let node = item["requestInfo"]?["issuerIdentifiers"] {
            guard let entries = node.array else { throw malformed("requestInfo.issuerIdentifiers is not an array") }
            for entry in entries {
                guard let identifier = entry.bytes else { throw malformed("requestInfo.issuerIdentifiers holds a non-bstr entry") }
                issuerIdentifiers.append(Array(identifier))
            }
        }
        self.docType = docType
        self.nameSpaces = nameSpaces
        self.issuerIdentifiers = issuerIdentifiers
    }
}
