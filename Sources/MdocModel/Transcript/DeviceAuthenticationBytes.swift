import CBOR

/// `DeviceAuthenticationBytes = #6.24(bstr .cbor ["DeviceAuthentication", SessionTranscript, DocType, DeviceNameSpacesBytes])`
/// (ISO/IEC 18013-5 §9.1.3.4). The transcript is embedded untagged; DeviceNameSpacesBytes exactly as received.
package enum DeviceAuthenticationBytes {
    package static func build(transcript: SessionTranscript, docType: String, deviceNameSpacesBytes: ArraySlice<UInt8>) -> [UInt8] {
        // Written into buffers directly: the transcript and the namespaces are copied once each, not through a tree.
        var inner: [UInt8] = []
        inner.reserveCapacity(transcript.bytes.count + deviceNameSpacesBytes.count + docType.utf8.count + 32)
        CBOREncoder.appendArrayHead(count: 4, to: &inner)
        CBOREncoder.appendText("DeviceAuthentication", to: &inner)
        inner.append(contentsOf: transcript.bytes)
        CBOREncoder.appendText(docType, to: &inner)
        inner.append(contentsOf: deviceNameSpacesBytes)
        var out: [UInt8] = []
        out.reserveCapacity(inner.count + 12)
        CBOREncoder.appendTagHead(24, to: &out)
        CBOREncoder.appendByteString(inner, to: &out)
        return out
    }
}
