import CryptoCore
import MdocModel

extension DocumentCheck {
    /// Decodes the MSO from the tag-24 payload and checks its version. The payload is only decoded here, never
    /// trusted: the signature check stands beside it.
    static let msoDecode = DocumentCheck(.msoDecode, produces: .mso, stage: .issuer) { $0.decodeMobileSecurityObject() }

    /// The MSO's digest algorithm must be SHA-256, SHA-384 or SHA-512.
    static let msoDigestAlgorithm = DocumentCheck(.msoDigestAlgorithm, needs: .mso, produces: .digestAlgorithm, stage: .issuer) {
        $0.checkDigestAlgorithm(mso: $1)
    }

    /// `MSO.docType` must equal `Document.docType`.
    static let msoDocType = DocumentCheck(.msoDocType, needs: .mso, stage: .issuer) { $0.checkDocType(mso: $1) }
}

extension DocumentVerification {
    mutating func decodeMobileSecurityObject() -> MobileSecurityObject? {
        guard let payload = document.issuerAuth.payload else {
            skip(.msoDecode, "no attached payload")
            return nil
        }
        let decoded: MobileSecurityObject
        do {
            decoded = try MobileSecurityObject(payload: payload, limits: document.issuerAuth.decodingLimits)
        } catch {
            fail(.msoDecode, error.code, error.message)
            return nil
        }
        guard decoded.version.hasPrefix("1.") else {
            fail(.msoDecode, .msoMalformed, "MSO version \(decoded.version) is not 1.x")
            return nil
        }
        pass(.msoDecode, "MSO version \(decoded.version)")
        return decoded
    }

    mutating func checkDigestAlgorithm(mso: MobileSecurityObject) -> DigestAlgorithm? {
        if let algorithm = mso.digestAlgorithm {
            pass(.msoDigestAlgorithm, mso.digestAlgorithmName)
            return algorithm
        }
        fail(.msoDigestAlgorithm, .msoDigestAlgorithmUnsupported,
             "digest algorithm \(mso.digestAlgorithmName) is not SHA-256, SHA-384 or SHA-512")
        return nil
    }

    mutating func checkDocType(mso: MobileSecurityObject) {
        if mso.docType == document.docType {
            pass(.msoDocType, mso.docType)
        } else {
            fail(.msoDocType, .msoDocTypeMismatch, "MSO docType \(InputQuote.short(mso.docType)) differs from the document's \(InputQuote.short(document.docType))")
        }
    }
}
