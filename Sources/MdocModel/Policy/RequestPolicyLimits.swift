/// Bounds on what one request may name. A real request names a handful of elements of one or two documents; these
/// ceilings keep a hostile or buggy caller from storing or signing an arbitrarily large request.
public struct RequestPolicyLimits: Sendable, Equatable {
    /// Most documents one request may name (default 8).
    public var maxDocuments = 8
    /// Most namespaces one document of a request may name (default 16).
    public var maxNameSpacesPerDocument = 16
    /// Most elements one document of a request may name, over all its namespaces (default 256).
    public var maxElementsPerDocument = 256
    /// Longest docType, namespace or element identifier, in Unicode scalars (as the OpenAPI document's `maxLength`
    /// counts them; at most 1 KiB of UTF-8).
    public var maxIdentifierLength = 256

    /// Creates the default limits.
    public init() {}

    /// The default limits.
    public static let `default` = RequestPolicyLimits()
}

extension RequestPolicy {
    /// Checks that the request names something and stays within `limits`.
    ///
    /// - Throws: A `VerificationError` with code `input.malformed`, naming the first bound the request exceeds or a
    ///   part that is empty.
    public func validate(_ limits: RequestPolicyLimits = .default) throws(VerificationError) {
        func refuse(_ why: String) -> VerificationError { VerificationError(.inputMalformed, why) }
        guard !documents.isEmpty else { throw refuse("documents must not be empty") }
        guard documents.count <= limits.maxDocuments else {
            throw refuse("the request names \(documents.count) documents; at most \(limits.maxDocuments)")
        }
        for (index, document) in documents.enumerated() {
            guard !document.docType.isEmpty else { throw refuse("documents[\(index)].docType must not be empty") }
            guard !document.nameSpaces.isEmpty, document.nameSpaces.allSatisfy({ !$0.key.isEmpty && !$0.value.isEmpty }) else {
                throw refuse("documents[\(index)].nameSpaces must name at least one element per namespace")
            }
            guard document.nameSpaces.count <= limits.maxNameSpacesPerDocument else {
                throw refuse("documents[\(index)] names \(document.nameSpaces.count) namespaces; at most \(limits.maxNameSpacesPerDocument)")
            }
            let elements = document.nameSpaces.values.reduce(0) { $0 + $1.count }
            guard elements <= limits.maxElementsPerDocument else {
                throw refuse("documents[\(index)] names \(elements) elements; at most \(limits.maxElementsPerDocument)")
            }
            let names = [document.docType] + document.nameSpaces.keys + document.nameSpaces.values.flatMap(\.keys)
            guard names.allSatisfy({ $0.unicodeScalars.count <= limits.maxIdentifierLength }) else {
                throw refuse("documents[\(index)] has a docType, namespace or element identifier over \(limits.maxIdentifierLength) characters")
            }
        }
        guard Set(documents.map(\.docType)).count == documents.count else { throw refuse("each docType may be requested once") }
        try validateAllowedIssuers()
    }

    /// Checks the issuer allow-list against Apple's bounds (at most 1,000 identifiers of 1 to 64 bytes) and for repeats.
    ///
    /// - Throws: A `VerificationError` with code `input.malformed` naming the first entry out of bounds or repeated.
    public func validateAllowedIssuers() throws(VerificationError) {
        func refuse(_ why: String) -> VerificationError { VerificationError(.inputMalformed, why) }
        guard allowedIssuers.count <= IssuerIdentifiers.maxCount else {
            throw refuse("allowedIssuers names \(allowedIssuers.count) issuers; at most \(IssuerIdentifiers.maxCount)")
        }
        var seen: [[UInt8]: Int] = [:]
        for (index, identifier) in allowedIssuers.enumerated() {
            guard !identifier.isEmpty, identifier.count <= IssuerIdentifiers.maxLength else {
                throw refuse("allowedIssuers[\(index)] is \(identifier.count) bytes; a key identifier is 1 to \(IssuerIdentifiers.maxLength) bytes")
            }
            if let first = seen.updateValue(index, forKey: identifier) {
                throw refuse("allowedIssuers[\(index)] repeats allowedIssuers[\(first)]")
            }
        }
    }
}
