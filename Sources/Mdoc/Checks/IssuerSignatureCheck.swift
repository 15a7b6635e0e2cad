import CryptoCore
import MdocModel
import MdocTrust

extension DocumentCheck {
    /// Verifies issuerAuth's `Sig_structure = ["Signature1", protected, h'', MobileSecurityObjectBytes]` over the
    /// protected header and payload exactly as received, with the document signer's key.
    static let issuerSignature = DocumentCheck(.issuerSignature, needs: .issuerAlgorithm, .documentSigner, produces: .issuerSignature,
                                               stage: .issuer) {
        $0.checkIssuerSignature(algorithm: $1, signer: $2.signer)
    }
}

extension DocumentVerification {
    mutating func checkIssuerSignature(algorithm: COSEAlgorithm, signer: Certificate) -> IssuerSignatureVerified? {
        let id = CheckID.issuerSignature
        guard let payload = document.issuerAuth.payload else {
            fail(id, .issuerSignatureInvalid, "issuerAuth payload is detached; the MSO must be attached")
            return nil
        }
        let key: PublicKey
        do {
            key = try context.cache.publicKey(of: signer)
        } catch {
            fail(id, .issuerAlgorithmUnsupported, "document signer key is not supported: \(error)")
            return nil
        }
        switch document.issuerAuth.verifySignature(with: key, payload: payload) {
        case .valid:
            pass(id, "\(algorithm.name) signature by the document signer is valid")
            return IssuerSignatureVerified()
        case .invalid:
            fail(id, .issuerSignatureInvalid, "issuerAuth \(algorithm.name) signature does not verify")
        case .keyMismatch, .unsupportedAlgorithm:
            let curves = algorithm.signatureParameters?.curves.map(\.rawValue).joined(separator: " or ") ?? "another"
            fail(id, .issuerAlgorithmUnsupported, "\(algorithm.name) needs a \(curves) key; the document signer key is \(key.curve.rawValue)")
        }
        return nil
    }
}
