import CBOR
import Foundation
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
        guard let plaintext = run.hpkeOpen(
            key: input.session.privateKey, enc: envelope.enc, ciphertext: envelope.cipherText, info: transcript.bytes,
            clause: Self.hpkeClause,
            failed: { "HPKE open failed: not encrypted to this session's key, or for another origin or encryptionInfo (\($0))" },
            opened: { "\($0)-byte DeviceResponse decrypted with the dcapi transcript" })
        else { return nil }

        // The plaintext is the bare DeviceResponse, verified with the same transcript.
        guard let item = run.decodeDeviceResponse(plaintext, what: "decrypted DeviceResponse", code: .responseMalformed) else {
            return nil
        }
        return OpenedResponse(deviceResponse: item, transcript: transcript)
    }
}
