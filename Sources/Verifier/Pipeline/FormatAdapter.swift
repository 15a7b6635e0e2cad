import CBOR
import CryptoCore
import HPKE
import Mdoc
import MdocModel

/// A format's front door: it unwraps what the wallet sent into a DeviceResponse and the session transcript to
/// check it against, recording its own checks (envelope, decryption) in the run. Everything else — input
/// ceilings, the ISO/IEC 18013-5 checks, the request policy, the report — is the pipeline's.
package protocol FormatAdapter: Sendable {
    associatedtype Input
    static var format: VerificationReport.Format { get }
    /// deviceMac needs a reader key agreed with the device; the online formats accept signatures only.
    static var acceptsDeviceMac: Bool { get }
    /// The size the input ceiling applies to, and whether it is text (base64 and JSON around the bytes).
    func inputSize(_ input: Input) -> (bytes: Int, isText: Bool)
    /// The DeviceResponse to verify, or nil once a check of the envelope failed (the run says why).
    func open(_ input: Input, in run: inout PipelineRun) -> OpenedResponse?
}

/// What an adapter hands to the mdoc checks.
package struct OpenedResponse {
    /// One DeviceResponse, or one per presentation (OpenID4VP: one per credential query), all under one transcript.
    package let deviceResponses: [CBORItem]
    package let transcript: SessionTranscript
    /// The reader's ephemeral private key, for deviceMac.
    package let readerKey: PrivateKey?

    package init(deviceResponse: CBORItem, transcript: SessionTranscript, readerKey: PrivateKey? = nil) {
        self.init(deviceResponses: [deviceResponse], transcript: transcript, readerKey: readerKey)
    }

    package init(deviceResponses: [CBORItem], transcript: SessionTranscript, readerKey: PrivateKey? = nil) {
        self.deviceResponses = deviceResponses
        self.transcript = transcript
        self.readerKey = readerKey
    }
}

/// The state of one verification: the check log and stage timings, which every step (the adapter, then the mdoc checks)
/// appends to, and the CBOR limits. The timings, created with the run, decide once whether its stages are traced.
package struct PipelineRun {
    package var log = CheckLog()
    package var timings = StageTimings()
    package let limits: CBORLimits
    package let testMode: Bool

    /// Decodes bytes as mdoc CBOR (`CBORDecoder.Options.mdoc`) with the configured limits; a failure is a
    /// `VerificationError` with `code`.
    package mutating func decode(_ bytes: [UInt8], what: String, code: ErrorCode) throws(VerificationError) -> CBORItem {
        let options = CBORDecoder.Options.mdoc(limits: limits)
        do {
            return try timings.measure(.decode) { try CBORDecoder.decode(bytes, options: options) }
        } catch {
            throw VerificationError(code, "\(what) is not well-formed CBOR: \(error)")
        }
    }

    /// A DeviceResponse decoded as `decode` does, or nil after failing `response.decode` with the error.
    package mutating func decodeDeviceResponse(_ bytes: [UInt8], what: String, code: ErrorCode) -> CBORItem? {
        do throws(VerificationError) {
            return try decode(bytes, what: what, code: code)
        } catch {
            log.fail(.responseDecode, error.code, error.message)
            return nil
        }
    }

    /// HPKE open in base mode with `Ciphersuite.p256SHA256AES128GCM` and no aad, timed as `.hpke` and recorded as
    /// `hpke.open` under `clause`: passed with `opened(plaintext byte count)`, or failed with `failed(error)` and nil.
    package mutating func hpkeOpen(key: PrivateKey, enc: some CryptoBytes, ciphertext: some CryptoBytes, info: [UInt8],
                                   clause: String, failed: (any Error) -> String, opened: (Int) -> String) -> [UInt8]? {
        let plaintext: [UInt8]
        do {
            plaintext = try timings.measure(.hpke) {
                try HPKE.open(suite: .p256SHA256AES128GCM, recipientKey: key, encapsulatedKey: enc, ciphertext: ciphertext,
                              info: info, aad: [UInt8]())
            }
        } catch {
            log.fail(.hpkeOpen, .hpkeOpenFailed, failed(error), clause: clause)
            return nil
        }
        log.pass(.hpkeOpen, opened(plaintext.count), clause: clause)
        return plaintext
    }
}
