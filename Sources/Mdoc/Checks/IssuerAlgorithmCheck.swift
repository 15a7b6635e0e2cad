import MdocModel
extension DocumentCheck {
    /// issuerAuth's headers follow RFC 9052 §3 (`crit` protected and listing only labels we process, `alg` protected
    /// only, no label twice), and `alg` is one we verify (ES256/384/512, EdDSA).
    static let issuerAlgorithm = DocumentCheck(.issuerAlgorithm, produces: .issuerAlgorithm, stage: .issuer) {
        $0.checkIssuerAlgorithm()
    }
}

extension DocumentVerification {
    mutating func checkIssuerAlgorithm() -> COSEAlgorithm? {
        if let problem = document.issuerAuth.headerProblem(understood: COSEHeaderLabel.processedInIssuerAuth) {
            fail(.issuerAlgorithm, .coseHeaderInvalid, "issuerAuth: \(problem)")
            return nil
        }
        guard let identifier = document.issuerAuth.algorithmIdentifier else {
            fail(.issuerAlgorithm, .issuerAlgorithmUnsupported, "issuerAuth has no `alg` in its protected header")
            return nil
        }
        guard let algorithm = COSEAlgorithm(rawValue: identifier), algorithm.signatureParameters != nil else {
            fail(.issuerAlgorithm, .issuerAlgorithmUnsupported, "issuerAuth algorithm \(identifier) is not supported")
            return nil
        }
        pass(.issuerAlgorithm, algorithm.name)
        return algorithm
    }
}
