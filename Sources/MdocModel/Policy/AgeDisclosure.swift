import CBOR

/// How a document's returned elements answer a request's age questions (ISO/IEC 18013-5 §7.2.5, `age_over_NN`).
///
/// A requested `age_over_NN` that the issuer did not return may be answered by `age_in_years` (Apple's framework
/// falls back this way). The relying party then receives the answer to the question it asked, a boolean
/// `age_over_NN` derived from `age_in_years`, and never the exact age unless it asked for `age_in_years` itself.
/// When every requested `age_over_NN` was returned, there is nothing to fall back for and an unrequested
/// `age_in_years` is an unrequested element like any other.
package struct AgeDisclosure: Sendable, Equatable {
    /// A requested `age_over_NN` answered from `age_in_years`.
    package struct Derivation: Sendable, Equatable {
        package let nameSpace: String
        /// The requested `age_over_NN`.
        package let element: String
        package let threshold: UInt64
        /// The returned element the answer is computed from (`age_in_years`).
        package let source: String
    }

    package static let sourceElement = "age_in_years"

    /// Requested `age_over_NN` elements answered by derivation, in namespace then element order.
    package private(set) var derivations: [Derivation] = []
    /// Returned elements that were not requested and answer no requested question ("namespace/element").
    package private(set) var unrequested: [String] = []
    /// Returned elements released only through a derivation (namespace → identifiers): never disclosed as such.
    package private(set) var withheld: [String: Set<String>] = [:]

    /// `returned` lists the (namespace, element) pairs of the document, issuer- and device-signed. Grouped by linear
    /// scans rather than sets: a response holds a few namespaces of a few dozen elements, and hashing each identifier
    /// into sets cost more than the scans (this runs on every verification with a request policy).
    package init(request: RequestPolicy.DocumentRequest, returned: [(nameSpace: String, element: String)]) {
        var nameSpaces: [String] = []
        for (nameSpace, _) in returned where !nameSpaces.contains(nameSpace) { nameSpaces.append(nameSpace) }
        for nameSpace in nameSpaces.sorted() {
            let present = returned.filter { $0.nameSpace == nameSpace }.map(\.element)
            let requested = request.nameSpaces[nameSpace] ?? [:]
            let unanswered = requested.keys.compactMap { id in Self.ageOverThreshold(id).map { (id, $0) } }
                .filter { !present.contains($0.0) }
                .sorted { $0.0 < $1.0 }
            let fallback = !unanswered.isEmpty && present.contains(Self.sourceElement) && requested[Self.sourceElement] == nil
            if fallback {
                withheld[nameSpace] = [Self.sourceElement]
                derivations += unanswered.map {
                    Derivation(nameSpace: nameSpace, element: $0.0, threshold: $0.1, source: Self.sourceElement)
                }
            }
            var previous: String?
            for element in present.filter({ requested[$0] == nil }).sorted() where element != previous {
                previous = element
                if fallback && element == Self.sourceElement { continue }
                unrequested.append("\(nameSpace)/\(element)")
            }
        }
    }

    /// NN of an `age_over_NN` identifier (one or more decimal digits), nil for any other identifier.
    package static func ageOverThreshold(_ identifier: String) -> UInt64? {
        // Compared as UTF-8 bytes: every element of every known namespace passes through here, and a Character-wise
        // `hasPrefix` showed in profiles. Only ASCII digits may follow, so the answer is the same.
        let prefix = "age_over_".utf8
        let utf8 = identifier.utf8
        guard utf8.count > prefix.count, utf8.starts(with: prefix) else { return nil }
        var threshold: UInt64 = 0
        for byte in utf8.dropFirst(prefix.count) {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            let (times10, overflow) = threshold.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times10.addingReportingOverflow(UInt64(byte - 0x30))
            guard !overflow, !carry else { return nil }
            threshold = sum
        }
        return threshold
    }

    /// The derived answer: true when the age is at least the threshold; nil when the source is not an unsigned integer.
    package static func answer(_ derivation: Derivation, ageInYears: CBORItem) -> Bool? {
        guard case .unsigned(let age) = ageInYears.value else { return nil }
        return age >= derivation.threshold
    }
}
