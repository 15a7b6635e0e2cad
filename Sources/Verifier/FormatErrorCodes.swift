import MdocModel
import MdocTrust

// Codes raised by the format front doors: the envelope around a DeviceResponse and its decryption.
extension ErrorCode {
    /// `envelope.unsupported`: an envelope algorithm, mode or protocol identifier the verifier does not support, or a
    /// decryption key that is not P-256.
    public static let envelopeUnsupported = ErrorCode("envelope.unsupported")
    /// `hpke.open_failed`: HPKE decryption failed (another key, origin or encryptionInfo, or a tampered ciphertext).
    public static let hpkeOpenFailed = ErrorCode("hpke.open_failed")

    /// The codes more than one format's front door raises.
    public static let sharedFormatCodes: [ErrorCode] = [.envelopeUnsupported, .hpkeOpenFailed, .issuerMockData]

    /// Every code the format front doors raise (beside `mdocCodes`): the shared ones and each registered format's.
    public static var formatCodes: [ErrorCode] { sharedFormatCodes + FormatRegistry.descriptors.flatMap(\.codes) }

    /// Every code a verification report can carry.
    public static var verificationCodes: [ErrorCode] { mdocCodes + revocationCodes + [.vicalStale] + formatCodes }
}
