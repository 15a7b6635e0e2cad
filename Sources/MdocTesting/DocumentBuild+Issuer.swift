import CBOR
import CryptoCore
import Foundation
import KitCertificates
import Mdoc
import MdocModel

extension DocumentBuild {
    static let day: TimeInterval = 86_400

    /// issuerAuth: COSE_Sign1 by the Document Signer over the MSO, x5chain in the unprotected header.
    mutating func issuerAuth(nameSpaces: [NameSpaceItems], deviceKey: PublicKey) throws -> CBORValue {
        let dsValidity = documentSignerValidity()
        let (standardSigner, signerKey) = try documentSignerAndKey(validity: dsValidity)
        // PS256: a valid RSA-PSS signature by an RSA Document Signer the IACA issued.
        let rsaKey = faults.contains(.unsupportedCOSEAlgorithm) ? try RSATestKey.shared() : nil
        let signer = try rsaKey.map { try rsaDocumentSigner(like: standardSigner, key: $0, placeholder: signerKey) } ?? standardSigner
        documentSigner = signer
        var intermediates: [Certificate] = []
        if let intermediate = intermediateCA { intermediates.append(intermediate) }

        let algorithm = options.digestAlgorithm
        // SHA-1 digests for the SHA-1 fault: they are right, only the algorithm is refused.
        let sha1 = faults.contains(.sha1Digests)
        let valueDigests = nameSpaces.map { nameSpace in
            let digests = nameSpace.all.map { (id: $0.digestID, digest: sha1 ? X509Support.sha1($0.bytes) : Digest.hash(algorithm, $0.bytes)) }
                + nameSpace.decoys
            let kept = digests.filter { !(omittedDigest?.nameSpace == nameSpace.name && omittedDigest?.id == $0.id) }
            return (nameSpace: nameSpace.name, digests: kept.sorted { $0.id < $1.id })
        }
        var mso = MobileSecurityObjectBuilder(
            digestAlgorithm: faults.contains(.unsupportedDigestAlgorithm) || sha1 ? "SHA-1" : algorithm.rawValue,
            valueDigests: valueDigests,
            deviceKey: faults.contains(.deviceKeyMismatch)
                ? try pki.deviceKey(curve: options.deviceCurve, label: "other-device").publicKey : deviceKey,
            keyAuthorizations: faults.contains(.deviceSignedElementUnauthorized) ? nil
                : faults.contains(.deviceSignedElementNotRequested) && options.keyAuthorizations == nil
                ? .init(nameSpaces: [Self.defaultDeviceSignedElement.nameSpace]) : options.keyAuthorizations,
            // The Document and the device signature keep the requested docType; only the MSO names another.
            docType: faults.contains(.msoDocTypeMismatch) ? (options.docType == DocType.mDL ? DocType.photoID : DocType.mDL) : options.docType,
            validity: msoValidity(documentSigner: dsValidity))
        mso.extraEntries = extraEntries
        if faults.contains(.msoVersionUnsupported) { mso.version = "2.0" }
        var status: [(CBORValue, CBORValue)] = []
        if let reference = options.statusList {
            let index = faults.contains(.statusIndexOutOfRange) ? UInt64(1) << 40 : reference.index
            var entries: [(CBORValue, CBORValue)] = [(.text("idx"), .unsigned(index)), (.text("uri"), .text(reference.uri))]
            if let certificate = reference.certificate { entries.append((.text("certificate"), .bytes(certificate.derEncoded))) }
            status.append((.text("status_list"), .map(entries)))
        }
        if let reference = options.identifierListReference(faults: faults) {
            status.append((.text("identifier_list"), .map([(.text("id"), .bytes(reference.id)), (.text("uri"), .text(reference.uri))])))
        }
        if !status.isEmpty { mso.extraEntries.append((.text("status"), .map(status))) }

        let payload = mso.encode(style: style)
        var chain = [signer] + intermediates
        if options.x5chain == .array { chain.append(pki.iaca) }
        var unprotected: [(CBORValue, CBORValue)] = [(.int(33), .x5chain(chain))]
        if faults.contains(.issuerCritUnprotected) { unprotected.append((.int(2), .array([.int(33)]))) }
        if faults.contains(.issuerAlgUnprotected) { unprotected.append((.int(1), .text("none"))) }
        let protectedExtra = faults.contains(.issuerCritUnknown) ? COSEBuilder.unknownCriticalHeader : []
        let signed = try rsaKey.map { try COSEBuilder.sign1PS256(payload: payload, key: $0, protectedExtra: protectedExtra, unprotected: unprotected) }
            ?? COSEBuilder.sign1(payload: payload, signedPayload: payload, key: signerKey, algorithm: options.issuerAlgorithm?.label,
                                 digest: options.issuerAlgorithm?.digest, protectedExtra: protectedExtra, unprotected: unprotected)
        if faults.contains(.mockData) { return Self.zeroingSignature(signed) }
        return faults.contains(.issuerSignatureCorrupted) ? Self.flippingSignatureBit(signed) : signed
    }

    /// The signature's bytes set to zero, its length kept: mock data from a development device.
    static func zeroingSignature(_ message: CBORValue) -> CBORValue {
        guard case .array(var parts) = message, parts.count == 4, case .bytes(let signature) = parts[3] else { return message }
        parts[3] = .bytes([UInt8](repeating: 0, count: signature.count))
        return .array(parts)
    }

    static func flippingSignatureBit(_ message: CBORValue) -> CBORValue {
        guard case .array(var parts) = message, parts.count == 4, case .bytes(var signature) = parts[3], !signature.isEmpty else {
            return message
        }
        signature[signature.count / 2] ^= 0x01
        parts[3] = .bytes(signature)
        return .array(parts)
    }

    // MARK: Document Signer

    /// A Document Signer with `signer`'s validity and an RSA key, issued by the IACA: what the PS256 fault signs with.
    func rsaDocumentSigner(like signer: Certificate, key: RSATestKey, placeholder: PrivateKey) throws -> Certificate {
        try TestPKI.makeDocumentSigner(
            key: placeholder, profile: [], validity: DateInterval(start: signer.notBefore, end: signer.notAfter),
            issuer: pki.iaca, issuerKey: pki.iacaKey,
            serial: pki.seed.serialNumber("document-signer/rsa"), country: pki.country, jurisdiction: pki.jurisdiction, rsaKey: key)
    }

    func documentSignerValidity() -> DateInterval {
        let today = TestPKI.startOfDay(time)
        if faults.contains(.documentSignerExpired) {
            return DateInterval(start: today - 500 * Self.day, duration: 450 * Self.day)
        }
        if faults.contains(.documentSignerNotYetValid) {
            return DateInterval(start: today + Self.day, duration: 450 * Self.day)
        }
        return TestPKI.documentSignerValidity(at: time)
    }

    /// The PKI's own Document Signer when it fits; otherwise one issued for the faults and time.
    mutating func documentSignerAndKey(validity: DateInterval) throws -> (Certificate, PrivateKey) {
        if faults.contains(.intermediateCA) {
            let intermediate = try pki.issueIntermediateCA(label: "fault", at: time)
            intermediateCA = intermediate.certificate
            let key = try pki.seed.key("document-signer/under-intermediate/\(pki.curve.rawValue)", curve: pki.curve)
            let signer = try TestPKI.makeDocumentSigner(
                key: key, profile: [], validity: validity, issuer: intermediate.certificate, issuerKey: intermediate.key,
                serial: pki.seed.serialNumber("document-signer/under-intermediate"), country: pki.country, jurisdiction: pki.jurisdiction)
            return (signer, key)
        }
        var deviations: DocumentSignerDeviations = []
        if faults.contains(.documentSignerWrongEKU) { deviations.insert(.wrongExtendedKeyUsage) }
        if faults.contains(.documentSignerKeyUsageWithoutDigitalSignature) { deviations.insert(.keyUsageWithoutDigitalSignature) }
        if faults.contains(.documentSignerNoKeyUsage) { deviations.insert(.noKeyUsage) }
        if faults.contains(.documentSignerIsCA) { deviations.insert(.certificateAuthority) }
        let untrusted = faults.contains(.untrustedRoot)
        let standard = pki.documentSigner
        let crlURI = options.crlDistributionPoint ?? TestPKI.crlURI
        if deviations.isEmpty, !untrusted, crlURI == TestPKI.crlURI, standard.notBefore == validity.start, standard.notAfter == validity.end {
            return (standard, pki.documentSignerKey)
        }
        let label = "variant-\(deviations.rawValue)-\(untrusted)-\(Int(validity.start.timeIntervalSince1970))"
        let issued = try pki.issueDocumentSigner(label: label, deviations: deviations, validity: validity,
                                                 untrustedIssuer: untrusted, crlURI: crlURI, at: time)
        return (issued.certificate, issued.key)
    }

    // MARK: MSO validity

    /// signed one hour before the verification time, valid 30 days from then; moved for the validity faults.
    /// `signed` stays inside the Document Signer's validity, except when the Document Signer is not yet valid
    /// (then `signed` precedes it too, which the verifier reports with the same code).
    func msoValidity(documentSigner: DateInterval) -> MobileSecurityObjectBuilder.ValidityInfo {
        var signed = time - 3600
        var validFrom = signed
        var validUntil = time + 30 * Self.day
        var expectedUpdate = time + 20 * Self.day
        if faults.contains(.msoExpired) {
            signed = time - 40 * Self.day
            validFrom = signed
            validUntil = time - 10 * Self.day
            expectedUpdate = time - 20 * Self.day
        }
        if faults.contains(.msoNotYetValid) {
            validFrom = time + 10 * Self.day
            validUntil = time + 40 * Self.day
            expectedUpdate = time + 30 * Self.day
        }
        if faults.contains(.msoExpiredMinutes) {
            validUntil = time - 600
            expectedUpdate = time - 1200
            signed = min(signed, validUntil - Self.day)
            validFrom = signed
        }
        if faults.contains(.msoSignedBeforeCertificate) {
            // A day before the Document Signer's validity starts; validFrom and validUntil still cover the time.
            signed = documentSigner.start - Self.day
            validFrom = signed
            return MobileSecurityObjectBuilder.ValidityInfo(signed: signed, validFrom: validFrom, validUntil: validUntil,
                                                            expectedUpdate: options.expectedUpdate ? expectedUpdate : nil)
        }
        if signed > documentSigner.end {
            signed = documentSigner.end - Self.day
            if !faults.contains(.msoNotYetValid) { validFrom = signed }
        }
        return MobileSecurityObjectBuilder.ValidityInfo(signed: signed, validFrom: validFrom, validUntil: validUntil,
                                                        expectedUpdate: options.expectedUpdate ? expectedUpdate : nil)
    }
}
