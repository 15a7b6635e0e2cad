import CBOR
import CryptoCore
import MdocModel

extension DocumentCheck {
    /// mdoc authentication: deviceSignature (COSE_Sign1) or deviceMac (COSE_Mac0) over
    /// DeviceAuthenticationBytes built from our session transcript, the docType and the received
    /// DeviceNameSpacesBytes, with the MSO device key. The payload is detached; an attached payload must
    /// equal our bytes.
    static let deviceAuthentication = DocumentCheck(.deviceAuthentication, needs: .mso, stage: .device) {
        $0.checkDeviceAuthentication(mso: $1)
    }
}

extension DocumentVerification {
    static let deviceMacClause = "ISO/IEC 18013-5 §9.1.3.5, §9.3.2"

    mutating func checkDeviceAuthentication(mso: MobileSecurityObject) {
        let id = CheckID.deviceAuthentication
        let key: PublicKey
        do {
            key = try COSEKey.publicKey(from: mso.deviceKey)
        } catch {
            fail(id, .msoMalformed, "MSO deviceKey: \(error)")
            return
        }
        guard let auth = document.deviceAuth else {
            fail(id, .deviceAuthMissing, document.deviceAuthProblem ?? "no device authentication")
            return
        }
        let message: COSEMessage
        switch auth {
        case .signature(let signature): message = signature
        case .mac(let mac): message = mac
        }
        if let problem = message.headerProblem(understood: COSEHeaderLabel.processedInDeviceAuth) {
            fail(id, .coseHeaderInvalid, "device authentication: \(problem)")
            return
        }
        let expected = DeviceAuthenticationBytes.build(
            transcript: context.transcript, docType: document.docType, deviceNameSpacesBytes: document.deviceNameSpacesBytes)
        switch auth {
        case .signature(let message):
            verifyDeviceSignature(message, key: key, deviceAuthentication: expected, keyAlgorithm: COSEKey.algorithm(of: mso.deviceKey))
        case .mac(let message):
            verifyDeviceMac(message, deviceKey: key, deviceAuthentication: expected)
        }
    }

    private mutating func verifyDeviceSignature(_ message: COSEMessage, key: PublicKey, deviceAuthentication: [UInt8], keyAlgorithm: Int64?) {
        let id = CheckID.deviceAuthentication
        let clause = id.clause
        guard let identifier = message.algorithmIdentifier, let algorithm = COSEAlgorithm(rawValue: identifier),
              algorithm.signatureParameters != nil
        else {
            fail(id, .deviceSignatureInvalid, "deviceSignature algorithm is missing or unsupported", clause: clause)
            return
        }
        if let keyAlgorithm, keyAlgorithm != identifier {
            fail(id, .deviceSignatureInvalid, "device key is restricted to alg \(keyAlgorithm), signature uses \(algorithm.name)", clause: clause)
            return
        }
        if let attached = message.payload, !attached.elementsEqual(deviceAuthentication) {
            fail(id, .deviceSignatureInvalid, "attached payload differs from our DeviceAuthenticationBytes", clause: clause)
            return
        }
        switch message.verifySignature(with: key, payload: deviceAuthentication) {
        case .valid:
            pass(id, "deviceSignature \(algorithm.name) over our session transcript is valid", clause: clause)
        case .keyMismatch, .unsupportedAlgorithm:
            fail(id, .deviceSignatureInvalid, "\(algorithm.name) does not fit the \(key.curve.rawValue) device key", clause: clause)
        case .invalid:
            fail(id, .deviceSignatureInvalid,
                 "deviceSignature does not verify over DeviceAuthenticationBytes (another session transcript, or not signed by the device key)",
                 clause: clause)
        }
    }

    private mutating func verifyDeviceMac(_ message: COSEMessage, deviceKey: PublicKey, deviceAuthentication: [UInt8]) {
        let id = CheckID.deviceAuthentication
        let clause = Self.deviceMacClause
        guard context.options.allowDeviceMac else {
            fail(id, .deviceAuthMissing, "deviceMac is not accepted for this format; a deviceSignature is required", clause: clause)
            return
        }
        guard message.algorithmIdentifier == COSEAlgorithm.hmac256.rawValue else {
            fail(id, .deviceMacInvalid, "deviceMac algorithm must be 5 (HMAC 256/256)", clause: clause)
            return
        }
        guard let readerKey = context.readerKey else {
            fail(id, .deviceAuthMissing, "deviceMac needs the reader's ephemeral private key, and none was given", clause: clause)
            return
        }
        if let attached = message.payload, !attached.elementsEqual(deviceAuthentication) {
            fail(id, .deviceMacInvalid, "attached payload differs from our DeviceAuthenticationBytes", clause: clause)
            return
        }
        do {
            var shared = try readerKey.sharedSecret(with: deviceKey)
            defer { shared.zeroize() }
            var macKey = try HKDF.derive(.sha256, ikm: shared, salt: Digest.hash(.sha256, context.transcript.taggedBytes),
                                         info: Array("EMacKey".utf8), length: 32)
            defer { macKey.zeroize() }
            let toBeMaced = message.toBeAuthenticated(context: "MAC0", payload: deviceAuthentication)
            let tag = HMAC.authenticate(.sha256, key: macKey, data: toBeMaced)
            if constantTimeEquals(tag, message.authenticator) {
                pass(id, "deviceMac (HMAC 256/256, EMacKey) over our session transcript is valid", clause: clause)
            } else {
                fail(id, .deviceMacInvalid, "deviceMac tag does not match", clause: clause)
            }
        } catch {
            fail(id, .deviceMacInvalid, "cannot derive EMacKey: the reader key does not fit the device key (\(error))", clause: clause)
        }
    }
}
