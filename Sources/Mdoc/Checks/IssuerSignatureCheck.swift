import CryptoCore

extension DocumentVerification {
    static let issuerSignatureClause = "ISO/IEC 18013-5 §9.1.2.4, §9.3.1; RFC 9052 §4.4"

    /// Verifies issuerAuth's `Sig_structure = ["Signature1", protected, h'', MobileSecurityObjectBytes]` over the
    /// protected header and payload exactly as received, with the document signer's key.
    mutating func checkIssuerSignature() {
        let id = "issuer.signature"
        guard let algorithm, let parameters = algorithm.signatureParameters else {
            skip(id, "no supported algorithm", clause: Self.issuerSignatureClause)
            return
        }
        guard let signer = documentSigner else {
            skip(id, "no document signer certificate", clause: Self.issuerSignatureClause)
            return
        }
        guard let payload = document.issuerAuth.payload else {
            fail(id, .issuerSignatureInvalid, "issuerAuth payload is detached; the MSO must be attached", clause: Self.issuerSignatureClause)
            return
        }
        let key: PublicKey
        do {
            key = try context.cache.publicKey(of: signer)
        } catch {
            fail(id, .issuerAlgorithmUnsupported, "document signer key is not supported: \(error)", clause: Self.issuerSignatureClause)
            return
        }
        guard key.curve == parameters.curve else {
            fail(id, .issuerAlgorithmUnsupported,
                 "\(algorithm.name) needs a \(parameters.curve.rawValue) key; the document signer key is \(key.curve.rawValue)",
                 clause: Self.issuerSignatureClause)
            return
        }
        let toBeSigned = document.issuerAuth.toBeAuthenticated(context: "Signature1", payload: payload)
        if key.isValidSignature(document.issuerAuth.authenticator, for: toBeSigned, digest: parameters.digest) {
            pass(id, "\(algorithm.name) signature by the document signer is valid", clause: Self.issuerSignatureClause)
        } else {
            fail(id, .issuerSignatureInvalid, "issuerAuth \(algorithm.name) signature does not verify", clause: Self.issuerSignatureClause)
        }
    }
}
