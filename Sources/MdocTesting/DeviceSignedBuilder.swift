import CBOR
import CryptoCore
import Mdoc
import MdocModel

/// `DeviceSigned = {"nameSpaces": DeviceNameSpacesBytes, "deviceAuth": {"deviceSignature" / "deviceMac"}}`
/// (ISO/IEC 18013-5 §8.3.2.1.2.2, §9.1.3). Both authenticate the detached
/// `DeviceAuthenticationBytes = #6.24(["DeviceAuthentication", SessionTranscript, DocType, DeviceNameSpacesBytes])`.
public enum DeviceSignedBuilder {
    /// `DeviceNameSpacesBytes`: tag 24 around `{namespace: {identifier: value}}` (`d8 18 41 a0` when empty).
    public static func nameSpacesBytes(_ elements: [DataElement], style: CBOREncodingStyle = .preferred) -> [UInt8] {
        var order: [String] = []
        var byNameSpace: [String: [(CBORValue, CBORValue)]] = [:]
        for element in elements {
            if byNameSpace[element.nameSpace] == nil { order.append(element.nameSpace) }
            byNameSpace[element.nameSpace, default: []].append((.text(element.identifier), element.value))
        }
        let map: CBORValue = .map(order.map { (.text($0), .map(byNameSpace[$0] ?? [])) })
        return CBOREncoder.encode(.tagged(24, .bytes(style.encode(map))))
    }

    /// The detached `DeviceAuthenticationBytes` a device signature or MAC covers, for `transcript`, `docType` and
    /// the `DeviceNameSpacesBytes` in `nameSpacesBytes`.
    public static func deviceAuthenticationBytes(transcript: SessionTranscript, docType: String, nameSpacesBytes: [UInt8]) -> [UInt8] {
        DeviceAuthenticationBytes.build(transcript: transcript, docType: docType, deviceNameSpacesBytes: nameSpacesBytes[...])
    }

    /// DeviceSigned with a `deviceSignature` (COSE_Sign1, detached) by `deviceKey`.
    public static func signature(transcript: SessionTranscript, docType: String, nameSpacesBytes: [UInt8],
                                 deviceKey: PrivateKey, protectedExtra: [(CBORValue, CBORValue)] = []) throws -> CBORValue {
        let payload = deviceAuthenticationBytes(transcript: transcript, docType: docType, nameSpacesBytes: nameSpacesBytes)
        let signature = try COSEBuilder.sign1(payload: nil, signedPayload: payload, key: deviceKey, protectedExtra: protectedExtra)
        return deviceSigned(nameSpacesBytes, auth: ("deviceSignature", signature))
    }

    /// DeviceSigned with a `deviceMac` (COSE_Mac0, HMAC 256/256) keyed with
    /// EMacKey = HKDF-SHA-256(ECDH(device private, reader public), salt SHA-256(SessionTranscriptBytes), "EMacKey", 32).
    public static func mac(transcript: SessionTranscript, docType: String, nameSpacesBytes: [UInt8],
                           deviceKey: PrivateKey, readerKey: PublicKey) throws -> CBORValue {
        var shared = try deviceKey.sharedSecret(with: readerKey)
        defer { shared.zeroize() }
        var macKey = try HKDF.derive(.sha256, ikm: shared, salt: Digest.hash(.sha256, transcript.taggedBytes),
                                     info: Array("EMacKey".utf8), length: 32)
        defer { macKey.zeroize() }
        let payload = deviceAuthenticationBytes(transcript: transcript, docType: docType, nameSpacesBytes: nameSpacesBytes)
        return deviceSigned(nameSpacesBytes, auth: ("deviceMac", COSEBuilder.mac0(detachedPayload: payload, key: macKey)))
    }

    static func deviceSigned(_ nameSpacesBytes: [UInt8], auth: (String, CBORValue)) -> CBORValue {
        .map([
            (.text("nameSpaces"), .encoded(nameSpacesBytes)),
            (.text("deviceAuth"), .map([(.text(auth.0), auth.1)])),
        ])
    }
}
