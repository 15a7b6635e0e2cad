import CBOR

/// `DeviceAuthenticationBytes = #6.24(bstr .cbor ["DeviceAuthentication", SessionTranscript, DocType, DeviceNameSpacesBytes])`
/// (ISO/IEC 18013-5 §9.1.3.4). The transcript is embedded untagged; DeviceNameSpacesBytes exactly as received.
package enum DeviceAuthenticationBytes {
    package static func build(transcript: SessionTranscript, docType: String, deviceNameSpacesBytes: ArraySlice<UInt8>) -> [UInt8] {
        let inner = CBOREncoder.encode(.array([
            .text("DeviceAuthentication"),
            .encoded(transcript.bytes),
            .text(docType),
            .encoded(Array(deviceNameSpacesBytes)),
        ]))
        return CBOREncoder.encode(.tagged(24, .bytes(inner)))
    }
}
