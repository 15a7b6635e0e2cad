import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel

/// Apple "Verify with Wallet" in-app (`PKIdentityDocument.encryptedData`, docs/formats.md §1): envelope →
/// pkRHash and infoHash before decrypting → HPKE open → `{"identity": DeviceResponse}`.
struct AppleAppAdapter: FormatAdapter {
    struct Input {
        let encryptedData: [UInt8]
        let session: AppleAppSession
    }

    static let format = VerificationReport.Format.appleApp
    static let acceptsDeviceMac = false
    static let envelopeClause = "Apple, Verifying Wallet identity requests (APPLE-HPKE-v1); docs/formats.md §1"
    static let hpkeClause = "RFC 9180 §5.1, §6.1 (base mode, DHKEM(P-256), HKDF-SHA256, AES-128-GCM)"

    let keys: RecipientKeyRing

    func inputSize(_ input: Input) -> (bytes: Int, isText: Bool) { (input.encryptedData.count, false) }

    func open(_ input: Input, in run: inout PipelineRun) -> OpenedResponse? {
        guard let envelope = readEnvelope(input.encryptedData, &run),
              let recipient = chooseRecipient(envelope, &run) else { return nil }
        // The session transcript from server-side values; infoHash tells whether the wallet used the same one.
        let session = input.session
        let transcript = SessionTranscript.appleInApp(
            nonce: session.nonce, merchantID: session.merchantID, teamID: session.teamID, recipientKeyHash: recipient.pkRHash)
        guard constantTimeEquals(Digest.hash(.sha256, transcript.bytes), envelope.infoHash) else {
            run.log.fail(.envelopeTranscript, .envelopeTranscriptMismatch,
                         "infoHash differs from SHA-256 of our session transcript: wrong nonce, merchant ID or team ID",
                         clause: Self.envelopeClause)
            return nil
        }
        run.log.pass(.envelopeTranscript, "infoHash matches our AppleIdentityPresentment_1.0 transcript", clause: Self.envelopeClause)

        guard let plaintext = run.hpkeOpen(key: recipient.key, enc: envelope.pkEm, ciphertext: envelope.data, info: transcript.bytes,
                                           clause: Self.hpkeClause, failed: { "HPKE open failed: \($0)" },
                                           opened: { "\($0)-byte plaintext" })
        else { return nil }

        // The plaintext is {"identity": DeviceResponse}.
        do throws(VerificationError) {
            let topics = try run.decode(plaintext, what: "plaintext", code: .responseMalformed)
            guard topics.isMap, let identity = topics["identity"] else {
                throw VerificationError(.responseMalformed, "plaintext has no `identity` entry")
            }
            return OpenedResponse(deviceResponse: identity, transcript: transcript)
        } catch {
            run.log.fail(.responseTopics, error.code, error.message, clause: Self.envelopeClause)
            return nil
        }
    }

    /// The CBOR envelope with a supported algorithm, mode and ephemeral key.
    private func readEnvelope(_ bytes: [UInt8], _ run: inout PipelineRun) -> AppleEnvelope? {
        let envelope: AppleEnvelope
        do throws(VerificationError) {
            let item = try run.decode(bytes, what: "response", code: .inputMalformed)
            envelope = try run.timings.measure(.decode) { () throws(VerificationError) in try AppleEnvelope(item) }
        } catch {
            run.log.fail(.envelopeStructure, error.code, error.message, clause: Self.envelopeClause)
            return nil
        }
        run.log.pass(.envelopeStructure, "\(envelope.data.count)-byte ciphertext", clause: Self.envelopeClause)
        guard envelope.algorithm == AppleEnvelope.algorithmName, envelope.mode == 0 else {
            run.log.fail(.envelopeAlgorithm, .envelopeUnsupported,
                         "algorithm \(envelope.algorithm) mode \(envelope.mode); only \(AppleEnvelope.algorithmName) mode 0 is supported",
                         clause: Self.envelopeClause)
            return nil
        }
        guard envelope.pkEm.count == 65, envelope.pkEm.first == 0x04 else {
            run.log.fail(.envelopeAlgorithm, .inputMalformed, "pkEm is not a 65-byte uncompressed P-256 point", clause: Self.envelopeClause)
            return nil
        }
        run.log.pass(.envelopeAlgorithm, "\(AppleEnvelope.algorithmName), mode 0", clause: Self.envelopeClause)
        return envelope
    }

    /// Apple's test key only in test mode; otherwise one of ours, chosen by pkRHash.
    private func chooseRecipient(_ envelope: AppleEnvelope, _ run: inout PipelineRun) -> RecipientKeyRing.Entry? {
        let isTestKey = constantTimeEquals(envelope.pkRHash, RecipientKeyRing.appleTestKeyHash)
        if isTestKey && !run.testMode {
            run.log.fail(.envelopeTestKey, .envelopeTestKey,
                         "response is encrypted to Apple's published test key (iOS Simulator or sample); refused outside test mode",
                         clause: Self.envelopeClause)
            return nil
        }
        if isTestKey {
            run.log.warn(.envelopeTestKey, "encrypted to Apple's published test key; accepted in test mode", clause: Self.envelopeClause)
        }
        guard let recipient = keys.key(for: envelope.pkRHash) else {
            run.log.fail(.envelopeRecipient, .envelopeRecipientMismatch,
                         "pkRHash matches none of the \(keys.entries.count) configured decryption key(s)", clause: Self.envelopeClause)
            return nil
        }
        run.log.pass(.envelopeRecipient, "pkRHash matches a configured key", clause: Self.envelopeClause)
        return recipient
    }
}
