import CBOR
import MdocTesting
import Testing

/// One DeviceResponse holding the documents of several one-document DeviceResponses, as a wallet that answers two
/// queries in one presentation would send (the OpenID4VP query-binding and HAIP tests). Each document keeps its bytes.
enum MergedDeviceResponse {
    static func of(_ responses: [[UInt8]]) throws -> [UInt8] {
        let documents = try responses.map { bytes in
            CBORValue.encoded(Array(try #require(try CBORDecoder.decode(bytes, limits: .default)["documents"]?.array?.first).raw))
        }
        return DeviceResponseBuilder.encode(documents: documents)
    }
}
