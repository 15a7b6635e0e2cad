import CryptoCore
import Mdoc
import MdocModel

/// The algorithm and encoding cases: every issuer curve with its algorithm (and a corrupted signature under each),
/// a label the key's curve is not paired with, x5chain as an array, several roots in one trust file, an expired IACA,
/// and deviceMac with the reader's key and with another reader's. They concern the mdoc itself, so the format whose
/// `CorpusShape.carriesEncodingCases` is set (the bare DeviceResponse) holds them.
extension ConformanceCatalog {
    static let algorithmClause = "ISO/IEC 18013-5 §9.1.2.4 (issuerAuth: ES256, ES384, ES512, EdDSA), §9.1.5 (curves: "
        + "P-256 and brainpoolP256r1 with ES256; P-384, brainpoolP320r1 and brainpoolP384r1 with ES384; P-521 and brainpoolP512r1 with ES512)"

    static func addEncodingCases(to list: inout CaseList) {
        addAlgorithmCases(to: &list)
        list.add(.positive, "x5chain-array", clause: "RFC 9360 §2 (x5chain: an array, leaf first); ISO/IEC 18013-5 §9.1.2.4",
                 summary: "issuerAuth's x5chain is an array [Document Signer, IACA], not a byte string: it must verify",
                 expected: .verified, recipe: Recipe(x5chain: .array))
        list.add(.positive, "trust-several-roots", clause: "ISO/IEC 18013-5 §9.3.3 (the IACA is found among the trusted roots)",
                 summary: "the trust file holds a P-384 IACA and another P-256 IACA with the same subject before the issuing one: it must verify",
                 expected: .verified, recipe: Recipe(severalRoots: true))
        list.add(.attack, "trust-anchor-expired", clause: "ISO/IEC 18013-5 §9.3.3; RFC 5280 §6.1 (the trust anchor's validity)",
                 summary: "the IACA expired the day before the verification time; its Document Signer and the MSO are still valid",
                 expected: .rejected(.issuerCertificateExpired), recipe: Recipe(issuer: .expiredAnchor))
        list.add(.positive, "device-mac", clause: "ISO/IEC 18013-5 §9.1.3.5 (deviceMac, keyed with the reader's ephemeral key)",
                 summary: "deviceMac instead of deviceSignature, and the verifier gets the reader's key: it must verify",
                 expected: .verified, recipe: Recipe(deviceMac: .readerKey))
        list.add(.attack, "device-mac-other-reader-key", clause: "ISO/IEC 18013-5 §9.1.3.5, §9.3.2 (device authentication)",
                 summary: "deviceMac made with another reader's key than the one the verifier gets: it must not verify",
                 expected: .rejected(.deviceMacInvalid), recipe: Recipe(deviceMac: .otherReaderKey))
    }

    /// Per curve: a positive case and the same response with a corrupted signature; and a valid signature under a label
    /// the key's curve is not paired with.
    static func addAlgorithmCases(to list: inout CaseList) {
        for curve in Recipe.Issuer.otherCurves {
            guard let algorithm = COSEAlgorithm.signing(with: curve) else { continue }
            let name = "issuer-\(algorithm.name.lowercased())-\(curve.rawValue.lowercased().replacingOccurrences(of: "-", with: ""))"
            let article = curve == .ed25519 ? "an" : "a"
            list.add(.positive, name, clause: algorithmClause,
                     summary: "issuerAuth \(algorithm.name) by \(article) \(curve.rawValue) Document Signer under \(article) \(curve.rawValue) IACA: it must verify",
                     expected: .verified, recipe: Recipe(issuer: .curve(curve)))
            list.add(.fault, "issuer-signature-corrupted-\(name.dropFirst("issuer-".count))", clause: algorithmClause + "; RFC 9052 §4.4",
                     summary: "the \(algorithm.name) issuerAuth signature of \(article) \(curve.rawValue) Document Signer has one bit flipped",
                     expected: .rejected(.issuerSignatureInvalid), fault: .issuerSignatureCorrupted,
                     recipe: Recipe(faults: [.issuerSignatureCorrupted], issuer: .curve(curve)))
        }
        list.add(.attack, "issuer-algorithm-curve-mismatch", clause: algorithmClause,
                 summary: "issuerAuth says ES384 and its signature by the P-256 Document Signer is a valid ECDSA over SHA-384: "
                    + "ES384 is not paired with P-256",
                 expected: .rejected(.issuerAlgorithmUnsupported),
                 recipe: Recipe(issuerAlgorithm: (label: COSEAlgorithm.es384.rawValue, digest: .sha384)))
        list.add(.attack, "issuer-algorithm-label-other-hash", clause: algorithmClause + "; RFC 9052 §4.4 (the alg header decides)",
                 summary: "issuerAuth says ES384 over a valid ES256 signature (SHA-256) by the P-256 Document Signer: "
                    + "a verifier that takes the hash from the key's curve instead of the label accepts it",
                 expected: .rejected(.issuerAlgorithmUnsupported),
                 recipe: Recipe(issuerAlgorithm: (label: COSEAlgorithm.es384.rawValue, digest: .sha256)))
    }
}
