import CryptoCore

/// The relying party's reader-authentication key and certificate chain (leaf first), e.g. the certificate
/// Apple Business Connect issues for Annex C requests to Apple Wallet.
public struct ReaderIdentity: Sendable {
    /// The private key that signs ReaderAuth.
    public let key: PrivateKey
    /// The reader certificate chain, leaf first; the leaf certifies `key`'s public key.
    public let certificates: [Certificate]
    /// The COSE signature algorithm for `key`, chosen from its curve.
    public let algorithm: COSEAlgorithm

    /// Creates an identity from a signing key and its certificate chain, leaf first.
    ///
    /// - Throws: `input.malformed` when the chain is empty, the key cannot sign, or the key is not the leaf's.
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
