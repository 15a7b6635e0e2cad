import CBOR
import CryptoCore
import Foundation

/// Builds, signs and verifies mdoc reader authentication (ISO/IEC 18013-5 §9.1.4).
///
/// ReaderAuth is a COSE_Sign1 with `x5chain` and a detached payload over ReaderAuthenticationBytes built from the
/// session transcript and the exact ItemsRequestBytes.
public enum ReaderAuthentication {
    static let clause = "ISO/IEC 18013-5 §9.1.4"
    /// Extended key usage of an mdoc reader certificate (ISO/IEC 18013-5 Annex B).
    public static let readerExtendedKeyUsage = "1.0.18013.5.1.6"

    /// The bytes a per-document `readerAuth` signs.
    ///
    /// `ReaderAuthenticationBytes = #6.24(bstr .cbor ["ReaderAuthentication", SessionTranscript, ItemsRequestBytes])`,
    /// the transcript untagged, the ItemsRequestBytes exactly as sent (per-document `readerAuth`).
    public static func bytes(transcript: SessionTranscript, itemsRequestBytes: [UInt8]) -> [UInt8] {
        CBOREncoder.encode(.embedded(.array([
            .text("ReaderAuthentication"), .encoded(transcript.bytes), .encoded(itemsRequestBytes),
        ])))
    }

    /// The bytes a `readerAuthAll` signature signs.
    ///
    /// `#6.24(bstr .cbor ["ReaderAuthenticationAll", SessionTranscript, [+ ItemsRequestBytes], DeviceRequestInfoBytes / null])`
    /// for `readerAuthAll` (18013-5 second edition, DeviceRequest 1.1). The four-element form follows current
    /// Multipaz and a-sit-plus/vck (docs/formats.md §2.6); Apple has not published which
    /// form its sample request signs.
    public static func allBytes(transcript: SessionTranscript, itemsRequestBytes: [[UInt8]], deviceRequestInfoBytes: [UInt8]?) -> [UInt8] {
        CBOREncoder.encode(.embedded(.array([
            .text("ReaderAuthenticationAll"),
            .encoded(transcript.bytes),
            .array(itemsRequestBytes.map { .encoded($0) }),
            deviceRequestInfoBytes.map { .encoded($0) } ?? .null,
        ])))
    }

    /// Signs `readerAuthenticationBytes` with `identity` and returns the ReaderAuth COSE_Sign1.
    ///
    /// The result is an untagged COSE_Sign1 `[<<{1: alg}>>, {33: x5chain}, null, signature]` over `["Signature1", protected,
    /// h'', readerAuthenticationBytes]` (RFC 9052 §4.4; detached payload as in Annex D, D.4.1.1).
    /// `x5chain` is one bstr for one certificate, else an array (RFC 9360 §2).
    ///
    /// - Throws: `input.malformed` when the identity's algorithm is not a signature algorithm, or the key's error
    ///   when signing fails.
    public static func sign(_ readerAuthenticationBytes: [UInt8], with identity: ReaderIdentity) throws -> [UInt8] {
        let protected = CBOREncoder.encode(.map([(.int(COSEHeaderLabel.algorithm), .int(identity.algorithm.rawValue))]))
        let x5chain = CBORValue.x5chain(identity.certificates)
        let toBeSigned = CBOREncoder.encode(.array([
            .text("Signature1"), .bytes(protected), .bytes([]), .bytes(readerAuthenticationBytes),
        ]))
        guard let digest = identity.algorithm.signatureParameters?.digest else {
            throw VerificationError(.inputMalformed, "\(identity.algorithm.name) is not a signature algorithm")
        }
        let signature = try identity.key.signature(for: toBeSigned, digest: digest)
        return CBOREncoder.encode(.array([
            .bytes(protected), .map([(.int(COSEHeaderLabel.x5chain), x5chain)]), .null, .bytes(signature),
        ]))
    }

    /// Verifies a ReaderAuth COSE_Sign1 over `readerAuthenticationBytes` and chains its certificate to a reader
    /// root at `time`. Returns the reader certificate.
    ///
    /// Errors: `input.malformed` (not a COSE_Sign1, no usable x5chain), `reader_auth.signature_invalid`
    /// (algorithm missing, unsupported or not fitting the key, attached payload differing, bad signature),
    /// `reader_auth.chain_untrusted` (no path to a root, expired, or an EKU without 1.0.18013.5.1.6).
    public static func verify(_ readerAuth: [UInt8], readerAuthenticationBytes: [UInt8], trustStore: TrustStore,
                              at time: Date) throws(VerificationError) -> Certificate {
        let message: COSEMessage
        do {
            message = try COSEMessage(try CBORDecoder.decode(readerAuth), tag: COSETag.sign1)
        } catch let error as COSEParseError {
            throw VerificationError(.inputMalformed, "ReaderAuth is not a COSE_Sign1: \(error)")
        } catch {
            throw VerificationError(.inputMalformed, "ReaderAuth is not well-formed CBOR: \(error)")
        }
        let certificates = try x5chain(message)
        let leaf = certificates[0]
        guard let key = try? leaf.publicKey() else {
            throw VerificationError(.readerAuthSignatureInvalid, "the reader certificate's key is not supported")
        }
        if let attached = message.payload, !attached.elementsEqual(readerAuthenticationBytes) {
            throw VerificationError(.readerAuthSignatureInvalid, "attached payload differs from our ReaderAuthenticationBytes")
        }
        switch message.verifySignature(with: key, payload: readerAuthenticationBytes) {
        case .valid:
            break
        case .unsupportedAlgorithm:
            throw VerificationError(.readerAuthSignatureInvalid, "ReaderAuth algorithm is missing from the protected header or unsupported")
        case .keyMismatch(let algorithm):
            throw VerificationError(.readerAuthSignatureInvalid, "\(algorithm) does not fit the reader certificate's key")
        case .invalid:
            throw VerificationError(.readerAuthSignatureInvalid,
                                    "ReaderAuth signature does not verify (another transcript or request, or another key)")
        }
        if let usages = leaf.extendedKeyUsage, !usages.contains(readerExtendedKeyUsage) {
            throw VerificationError(.readerAuthChainUntrusted, "reader certificate EKU lacks \(readerExtendedKeyUsage) (mdoc reader)")
        }
        switch trustStore.validate(leaf: leaf, intermediates: Array(certificates.dropFirst()), at: time) {
        case .trusted:
            return leaf
        case .failed(let failure):
            throw VerificationError(.readerAuthChainUntrusted, "reader certificate \(leaf.subject): \(failure.message)")
        }
    }

    /// `x5chain` (label 33): one DER certificate as a bstr, or an array of them, leaf first.
    private static func x5chain(_ message: COSEMessage) throws(VerificationError) -> [Certificate] {
        let chain: [Certificate]?
        do {
            chain = try message.x5chainCertificates()
        } catch {
            throw VerificationError(.inputMalformed, "ReaderAuth \(error.description)")
        }
        guard let chain else { throw VerificationError(.inputMalformed, "ReaderAuth carries no x5chain") }
        return chain
    }
}
