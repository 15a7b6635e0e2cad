import CBOR
import Foundation
import HPKE
import Mdoc
import MdocModel

/// ISO/IEC TS 18013-7 Annex C (`org-iso-mdoc` over the Digital Credentials API, docs/formats.md §2): response
/// shape → session transcript from the kept encryptionInfo text and origin → HPKE open → bare DeviceResponse.
struct AnnexCAdapter: FormatAdapter {
    struct Input {
        /// `DigitalCredential.data` as JSON (`{"response": "…"}`) or its `response` string.
        let response: String
        let session: AnnexCSession
    }

    static let format = VerificationReport.Format.annexC
    /// Annex C has no reader ephemeral key agreed with the device: deviceSignature only.
    static let acceptsDeviceMac = false
    static let responseClause = "ISO/IEC TS 18013-7 Annex C (EncryptedResponse); docs/formats.md §2"
    static let hpkeClause = "ISO/IEC TS 18013-7 Annex C; RFC 9180 §5.1, §6.1 (base mode, DHKEM(P-256), HKDF-SHA256, AES-128-GCM)"

    func inputSize(_ input: Input) -> (bytes: Int, isText: Bool) { (input.response.utf8.count, true) }

    func open(_ input: Input, in run: inout PipelineRun) -> OpenedResponse? {
        // EncryptedResponse = ["dcapi", {"enc", "cipherText"}].
        let envelope: AnnexCEncryptedResponse
        do {
            let limits = run.limits
            envelope = try run.timings.measure(.decode) { () throws(VerificationError) -> AnnexCEncryptedResponse in
                try AnnexCEncryptedResponse(input.response, limits: limits)
            }
        } catch {
            run.log.fail(.envelopeStructure, error.code, error.message, clause: Self.responseClause)
            return nil
        }
        run.log.pass(.envelopeStructure, "[\"dcapi\", {enc, cipherText}] with a \(envelope.cipherText.count)-byte ciphertext",
                     clause: Self.responseClause)

        // The transcript from what the server kept is the HPKE info, so another origin or encryptionInfo fails here.
        let transcript = input.session.transcript
        let plaintext: [UInt8]
        do {
            plaintext = try run.timings.measure(.hpke) {
                try HPKE.open(suite: .p256SHA256AES128GCM, recipientKey: input.session.privateKey, encapsulatedKey: envelope.enc,
                              ciphertext: envelope.cipherText, info: transcript.bytes, aad: [UInt8]())
            }
        } catch {
            run.log.fail(.hpkeOpen, .hpkeOpenFailed,
                         "HPKE open failed: not encrypted to this session's key, or for another origin or encryptionInfo (\(error))",
                         clause: Self.hpkeClause)
            return nil
        }
        run.log.pass(.hpkeOpen, "\(plaintext.count)-byte DeviceResponse decrypted with the dcapi transcript", clause: Self.hpkeClause)

        // The plaintext is the bare DeviceResponse, verified with the same transcript.
        do throws(VerificationError) {
            let item = try run.decode(plaintext, what: "decrypted DeviceResponse", code: .responseMalformed)
            return OpenedResponse(deviceResponse: item, transcript: transcript)
        } catch {
            run.log.fail(.responseDecode, error.code, error.message)
            return nil
        }
    }
}
