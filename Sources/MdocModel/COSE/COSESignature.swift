import CBOR
import CryptoCore

/// How a COSE_Sign1 signature check ended (RFC 9052 §4.4). Callers word the outcome for their own message.
package enum COSESignatureOutcome: Sendable, Equatable {
    case valid
    case invalid
    /// `alg` is missing from the protected header or is not a signature algorithm the verifier supports.
    case unsupportedAlgorithm
    /// The algorithm (named) does not fit the key's curve.
    case keyMismatch(algorithm: String)
}

extension COSEMessage {
    /// Verifies the signature with `key` under the protected `alg`, over `Sig_structure` built from the protected
    /// header as received and `payload` (the attached payload as received, or the caller's detached one).
    package func verifySignature(with key: PublicKey, payload: some Collection<UInt8>) -> COSESignatureOutcome {
        guard let identifier = algorithmIdentifier, let algorithm = COSEAlgorithm(rawValue: identifier),
              let parameters = algorithm.signatureParameters
        else { return .unsupportedAlgorithm }
        guard parameters.curves.contains(key.curve) else { return .keyMismatch(algorithm: algorithm.name) }
        let toBeSigned = toBeAuthenticated(context: "Signature1", payload: payload)
        return key.isValidSignature(authenticator, for: toBeSigned, digest: parameters.digest) ? .valid : .invalid
    }

    /// `x5chain` (label 33, RFC 9360): one bstr, or an array of 1…`limit` bstr, each a DER certificate, signer first.
    /// Nil when the header is absent; throws naming what is wrong otherwise.
    package func x5chainCertificates(limit: Int = ResponseLimits.maxCertificatesPerChain) throws(COSEParseError) -> [Certificate]? {
        guard let node = header(COSEHeaderLabel.x5chain) else { return nil }
        let ders: [ArraySlice<UInt8>]
        if let single = node.bytes {
            ders = [single]
        } else if let array = node.array, !array.isEmpty, array.count <= limit, array.allSatisfy({ $0.bytes != nil }) {
            ders = array.compactMap(\.bytes)
        } else {
            throw COSEParseError("x5chain is not a bstr or an array of 1 to \(limit) bstr (ResponseLimits.maxCertificatesPerChain)")
        }
        var chain: [Certificate] = []
        for (index, der) in ders.enumerated() {
            guard let certificate = try? Certificate(derEncoded: der) else {
                throw COSEParseError("x5chain[\(index)] is not a DER X.509 certificate")
            }
            chain.append(certificate)
        }
        return chain
    }
}
