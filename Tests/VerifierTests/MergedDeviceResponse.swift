import CBOR
import Testing

/// One DeviceResponse holding the documents of several one-document DeviceResponses, as a wallet that answers two
/// queries in one presentation would send (the OpenID4VP query-binding and HAIP tests).
enum MergedDeviceResponse {
    static func of(_ responses: [[UInt8]]) throws -> [UInt8] {
        let documents = try responses.map { bytes in
            try #require(try CBORDecoder.decode(bytes, limits: .default)["documents"]?.array?.first).raw
        }
        var out: [UInt8] = [0xA3, 0x67] + Array("version".utf8) + [0x63] + Array("1.0".utf8)
        out += [0x69] + Array("documents".utf8) + [0x80 | UInt8(documents.count)]
        for document in documents { out += document }
        out += [0x66] + Array("status".utf8) + [0x00]
        return out
    }
}
