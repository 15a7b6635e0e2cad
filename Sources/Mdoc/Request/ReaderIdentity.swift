import CryptoCore

/// The relying party's reader-authentication key and certificate chain (leaf first), e.g. the certificate
/// Apple Business Connect issues for Annex C requests to Apple Wallet.
public struct ReaderIdentity: Sendable {
    public let key: PrivateKey
    public let certificates: [Certificate]
    public let algorithm: COSEAlgorithm

    /// Fails with `input.malformed` when the chain is empty, the key cannot sign, or the key is not the leaf's.
    public init(key: PrivateKey, certificates: [Certificate]) throws(VerificationError) {
        guard let leaf = certificates.first else {
            throw VerificationError(.inputMalformed, "reader identity needs at least one certificate")
        }
        guard let algorithm = COSEAlgorithm.signing(with: key.curve) else {
            throw VerificationError(.inputMalformed, "a \(key.curve.rawValue) key cannot sign ReaderAuth")
        }
        guard let leafKey = try? leaf.publicKey(), leafKey == key.publicKey else {
            throw VerificationError(.inputMalformed, "the reader key does not belong to the reader certificate \(leaf.subject)")
        }
        self.key = key
        self.certificates = certificates
        self.algorithm = algorithm
    }
}
