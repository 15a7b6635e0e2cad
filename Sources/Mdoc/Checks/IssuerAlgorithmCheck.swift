extension DocumentVerification {
    static let issuerAlgorithmClause = "ISO/IEC 18013-5 §9.1.2.4; RFC 9052 §3.1"

    /// `alg` must be in the protected header of issuerAuth and be one we verify (ES256/384/512, EdDSA).
    mutating func checkIssuerAlgorithm() {
        let id = "issuer.algorithm"
        guard let identifier = document.issuerAuth.algorithmIdentifier else {
            fail(id, .issuerAlgorithmUnsupported, "issuerAuth has no `alg` in its protected header", clause: Self.issuerAlgorithmClause)
            return
        }
        guard let algorithm = COSEAlgorithm(rawValue: identifier), algorithm.signatureParameters != nil else {
            fail(id, .issuerAlgorithmUnsupported, "issuerAuth algorithm \(identifier) is not supported", clause: Self.issuerAlgorithmClause)
            return
        }
        self.algorithm = algorithm
        pass(id, algorithm.name, clause: Self.issuerAlgorithmClause)
    }
}
