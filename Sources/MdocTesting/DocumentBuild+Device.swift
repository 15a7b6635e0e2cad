import CBOR
import CryptoCore
import Mdoc

extension DocumentBuild {
    /// A device-signed element for `deviceSignedElementUnauthorized` and `deviceSignedElementNotRequested` when the
    /// options name none.
    static let defaultDeviceSignedElement = DataElement("org.iso.18013.5.1.mdoc-testing", "device_note", .text("added by the device"))

    /// DeviceSigned with deviceSignature or deviceMac over the target's transcript and the Document's docType.
    mutating func deviceSigned(target: ResponseTarget, deviceKey: PrivateKey) throws -> CBORValue {
        var elements = options.deviceSignedElements
        if !faults.isDisjoint(with: [.deviceSignedElementUnauthorized, .deviceSignedElementNotRequested]), elements.isEmpty {
            elements = [Self.defaultDeviceSignedElement]
        }
        let nameSpacesBytes = DeviceSignedBuilder.nameSpacesBytes(elements, style: style)
        let transcript = faults.contains(.deviceSignatureOtherTranscript) ? target.otherTranscript : target.transcript
        switch deviceAuthentication {
        case .signature:
            return try DeviceSignedBuilder.signature(transcript: transcript, docType: options.docType,
                                                     nameSpacesBytes: nameSpacesBytes, deviceKey: deviceKey,
                                                     protectedExtra: faults.contains(.deviceCritUnknown) ? COSEBuilder.unknownCriticalHeader : [])
        case .mac:
            guard deviceKey.curve.isEC else {
                throw SimulationError.unsupported("deviceMac needs an ECDH device key (P-256/384/521), not \(deviceKey.curve.rawValue)")
            }
            let reader = try seed.key("reader", curve: deviceKey.curve)
            readerKeyForVerifier = faults.contains(.deviceMacWithoutReaderKey) ? nil : reader
            return try DeviceSignedBuilder.mac(transcript: transcript, docType: options.docType, nameSpacesBytes: nameSpacesBytes,
                                               deviceKey: deviceKey, readerKey: reader.publicKey)
        }
    }
}
