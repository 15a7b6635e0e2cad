extension DocumentCheck {
    /// `alg` must be in the protected header of issuerAuth and be one we verify (ES256/384/512, EdDSA).
    static let issuerAlgorithm = DocumentCheck(.issuerAlgorithm, produces: [.issuerAlgorithm], stage: .issuer) {
        $0.checkIssuerAlgorithm()
    }
}

extension DocumentVerification {
    mutating func checkIssuerAlgorithm() {
        guard let identifier = document.issuerAuth.algorithmIdentifier else {
            fail(.issuerAlgorithm, .issuerAlgorithmUnsupported, "issuerAuth has no `alg` in its protected header")
            return
        }
        guard let algorithm = COSEAlgorithm(rawValue: identifier), algorithm.signatureParameters != nil else {
            fail(.issuerAlgorithm, .issuerAlgorithmUnsupported, "issuerAuth algorithm \(identifier) is not supported")
            return
        }
        facts.issuerAlgorithm = algorithm
        pass(.issuerAlgorithm, algorithm.name)
    }
}
