import CBOR

/// The version of a `DeviceRequest`.
///
/// "1.0" is ISO/IEC 18013-5:2021 (per-document `readerAuth`); "1.1" is the second edition, which adds
/// `readerAuthAll` and `deviceRequestInfo` (Apple's Annex C sample request uses it).
public enum DeviceRequestVersion: String, Sendable, CaseIterable {
    /// Version "1.0" (ISO/IEC 18013-5:2021).
    case v1_0 = "1.0"
    /// Version "1.1" (ISO/IEC 18013-5 second edition).
    case v1_1 = "1.1"
}

/// An mdoc reader's request for documents and data elements, to encode for a wallet or parse as received.
///
/// `DeviceRequest` (ISO/IEC 18013-5 §8.3.2.1.2.1; 2nd edition additions):
/// `{"version": tstr, "docRequests": [+ DocRequest], ? "readerAuthAll": [+ ReaderAuth], ? "deviceRequestInfo": #6.24(…)}`
/// with `DocRequest = {"itemsRequest": ItemsRequestBytes, ? "readerAuth": COSE_Sign1}`.
/// Signed parts are kept as exact bytes: what was signed (or received) is what is encoded (or verified).
public struct DeviceRequest: Sendable {
    /// One document's request: its `ItemsRequest` and an optional per-document reader authentication.
    public struct DocRequest: Sendable {
        /// `ItemsRequestBytes` (tag 24 included), exactly as encoded or received.
        public let itemsRequestBytes: [UInt8]
        /// The decoded `ItemsRequest`.
        public let itemsRequest: ItemsRequest
        /// The ReaderAuth COSE_Sign1 item, exactly as encoded or received.
        public let readerAuth: [UInt8]?

        /// Creates a document request, encoding `itemsRequest` as its `itemsRequestBytes`.
        ///
        /// - Parameters:
        ///   - itemsRequest: What the reader asks for from one document.
        ///   - readerAuth: A ReaderAuth COSE_Sign1 over these `itemsRequestBytes` (see `ReaderAuthentication`), or nil for none.
        public init(itemsRequest: ItemsRequest, readerAuth: [UInt8]? = nil) {
            self.itemsRequestBytes = itemsRequest.taggedBytes
            self.itemsRequest = itemsRequest
            self.readerAuth = readerAuth
        }

        init(itemsRequestBytes: [UInt8], itemsRequest: ItemsRequest, readerAuth: [UInt8]?) {
            self.itemsRequestBytes = itemsRequestBytes
            self.itemsRequest = itemsRequest
            self.readerAuth = readerAuth
        }
    }

    /// The `version` string as encoded or received, e.g. "1.0".
    public let version: String
    /// The document requests, in order.
    public let docRequests: [DocRequest]
    /// Each ReaderAuth COSE_Sign1 of `readerAuthAll`, exactly as encoded or received.
    public let readerAuthAll: [[UInt8]]
    /// `DeviceRequestInfoBytes` (tag 24 included), if present.
    public let deviceRequestInfoBytes: [UInt8]?

    /// Creates a request to encode.
    ///
    /// `readerAuthAll` and `deviceRequestInfoBytes` belong to version 1.1; they are encoded as given, whatever the
    /// version.
    public init(version: DeviceRequestVersion, docRequests: [DocRequest], readerAuthAll: [[UInt8]] = [],
                deviceRequestInfoBytes: [UInt8]? = nil) {
        self.version = version.rawValue
        self.docRequests = docRequests
        self.readerAuthAll = readerAuthAll
        self.deviceRequestInfoBytes = deviceRequestInfoBytes
    }

    /// The request as CBOR, in preferred serialization.
    ///
    /// Keys are in the order of Apple's sample (version, docRequests, readerAuthAll, deviceRequestInfo); signed
    /// parts are spliced in verbatim.
    public var encoded: [UInt8] {
        var pairs: [(CBORValue, CBORValue)] = [
            (.text("version"), .text(version)),
            (.text("docRequests"), .array(docRequests.map { request in
                var entries: [(CBORValue, CBORValue)] = [(.text("itemsRequest"), .encoded(request.itemsRequestBytes))]
                if let readerAuth = request.readerAuth { entries.append((.text("readerAuth"), .encoded(readerAuth))) }
                return .map(entries)
            })),
        ]
        if !readerAuthAll.isEmpty { pairs.append((.text("readerAuthAll"), .array(readerAuthAll.map { .encoded($0) }))) }
        if let info = deviceRequestInfoBytes { pairs.append((.text("deviceRequestInfo"), .encoded(info))) }
        return CBOREncoder.encode(.map(pairs))
    }

    /// Parses a DeviceRequest, keeping ItemsRequestBytes, ReaderAuth and DeviceRequestInfoBytes exactly as
    /// received.
    ///
    /// - Throws: `input.malformed` when the bytes are not well-formed CBOR within `limits`, the version is not
    ///   1.x, or anything does not fit the CDDL.
    public init(decoding bytes: [UInt8], limits: CBORLimits = .default) throws(VerificationError) {
        func malformed(_ what: String) -> VerificationError { VerificationError(.inputMalformed, "DeviceRequest: \(what)") }
        let item: CBORItem
        do {
            item = try CBORDecoder.decode(bytes, limits: limits)
        } catch {
            throw malformed("not well-formed CBOR (\(error))")
        }
        guard item.isMap else { throw malformed("not a map") }
        guard let version = item["version"]?.text else { throw malformed("no text `version`") }
        guard version.hasPrefix("1.") else { throw malformed("unsupported version \(version)") }
        guard let requests = item["docRequests"]?.array, !requests.isEmpty else { throw malformed("no `docRequests`") }
        var docRequests: [DocRequest] = []
        for request in requests {
            guard request.isMap, let itemsNode = request["itemsRequest"] else { throw malformed("a DocRequest has no `itemsRequest`") }
            let embedded: EmbeddedCBOR
            do {
                embedded = try itemsNode.decodeEmbedded(limits: limits)
            } catch {
                throw malformed("itemsRequest is not #6.24(bstr .cbor ItemsRequest)")
            }
            let readerAuth = request["readerAuth"].map { Array($0.raw) }
            docRequests.append(DocRequest(itemsRequestBytes: Array(embedded.tagged), itemsRequest: try ItemsRequest(decoding: embedded.item),
                                          readerAuth: readerAuth))
        }
        var readerAuthAll: [[UInt8]] = []
        if let node = item["readerAuthAll"] {
            guard let array = node.array, !array.isEmpty else { throw malformed("`readerAuthAll` is not a non-empty array") }
            readerAuthAll = array.map { Array($0.raw) }
        }
        var info: [UInt8]? = nil
        if let node = item["deviceRequestInfo"] {
            guard (try? node.decodeEmbedded(limits: limits)) != nil else {
                throw malformed("deviceRequestInfo is not #6.24(bstr .cbor DeviceRequestInfo)")
            }
            info = Array(node.raw)
        }
        self.version = version
        self.docRequests = docRequests
        self.readerAuthAll = readerAuthAll
        self.deviceRequestInfoBytes = info
    }

    /// What the request asks for, as a policy for checking the response.
    public var policy: RequestPolicy { RequestPolicy(documents: docRequests.map(\.itemsRequest.policy)) }
}
