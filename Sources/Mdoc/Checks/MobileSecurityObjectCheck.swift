extension DocumentVerification {
    static let msoClause = "ISO/IEC 18013-5 §9.1.2.4"
    static let docTypeClause = "ISO/IEC 18013-5 §9.3.1"

    /// Decodes the MSO from the tag-24 payload and checks its version and digest algorithm.
    /// The payload is only decoded here, never trusted: the signature check stands beside it.
    mutating func decodeMobileSecurityObject() {
        guard let payload = document.issuerAuth.payload else {
            skip("mso.decode", "no attached payload", clause: Self.msoClause)
            return
        }
        let decoded: MobileSecurityObject
        do {
            decoded = try MobileSecurityObject(payload: payload)
        } catch {
            fail("mso.decode", error.code, error.message, clause: Self.msoClause)
            return
        }
        guard decoded.version.hasPrefix("1.") else {
            fail("mso.decode", .msoMalformed, "MSO version \(decoded.version) is not 1.x", clause: Self.msoClause)
            return
        }
        mso = decoded
        pass("mso.decode", "MSO version \(decoded.version)", clause: Self.msoClause)
        if decoded.digestAlgorithm != nil {
            pass("mso.digest_algorithm", decoded.digestAlgorithmName, clause: Self.msoClause)
        } else {
            fail("mso.digest_algorithm", .msoDigestAlgorithmUnsupported,
                 "digest algorithm \(decoded.digestAlgorithmName) is not SHA-256, SHA-384 or SHA-512", clause: Self.msoClause)
        }
    }

    /// `MSO.docType` must equal `Document.docType`.
    mutating func checkDocType() {
        guard let mso else {
            skip("mso.doctype", "no MSO", clause: Self.docTypeClause)
            return
        }
        if mso.docType == document.docType {
            pass("mso.doctype", mso.docType, clause: Self.docTypeClause)
        } else {
            fail("mso.doctype", .msoDocTypeMismatch,
                 "MSO docType \(mso.docType) differs from the document's \(document.docType)", clause: Self.docTypeClause)
        }
    }
}
