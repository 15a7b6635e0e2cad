import CBOR
import CryptoCore
import Foundation
import HPKE
import Mdoc

/// Verifies ISO/IEC TS 18013-7 Annex C responses (`org-iso-mdoc` over the Digital Credentials API):
/// response shape → session transcript from the kept encryptionInfo text and origin → HPKE open → bare
/// DeviceResponse → the mdoc checks with that transcript → request policy (apple-verify-with-wallet.md §2.2).
public final class AnnexCVerifier: Sendable {
    public let configuration: VerifierConfiguration
    let mdoc: MdocVerifier

    static let responseClause = "ISO/IEC TS 18013-7 Annex C (EncryptedResponse)"
    static let hpkeClause = "ISO/IEC TS 18013-7 Annex C; RFC 9180 §5.1, §6.1 (base mode, DHKEM(P-256), HKDF-SHA256, AES-128-GCM)"

    public init(configuration: VerifierConfiguration) {
        self.configuration = configuration
        // Annex C has no reader ephemeral key agreed with the device: deviceSignature only.
        self.mdoc = MdocVerifier(
            trustStore: configuration.trustStore,
            options: MdocVerificationOptions(profile: configuration.profile, clockSkew: configuration.clockSkew, allowDeviceMac: false))
    }

    /// `response` is `DigitalCredential.data` as JSON (`{"response": "…"}`) or its `response` string.
    public func verify(response: String, session: AnnexCSession, at time: Date = Date()) -> VerificationReport {
        var log = CheckLog()
        var timings = StageTimings()
        let assurance: VerificationReport.Assurance = configuration.testMode ? .test : .production
        func finish(_ documents: [VerifiedDocument] = []) -> VerificationReport {
            VerificationReport(format: .annexC, assurance: assurance, log: log, documents: documents, timings: timings)
        }

        // 1. EncryptedResponse = ["dcapi", {"enc", "cipherText"}].
        let envelope: AnnexCEncryptedResponse
        do {
            envelope = try timings.measure(\.decode) { () throws(VerificationError) -> AnnexCEncryptedResponse in
                try AnnexCEncryptedResponse(response, limits: configuration.cborLimits)
            }
        } catch {
            log.fail("envelope.structure", error.code, error.message, clause: Self.responseClause)
            return finish()
        }
        log.pass("envelope.structure", "[\"dcapi\", {enc, cipherText}] with a \(envelope.cipherText.count)-byte ciphertext",
                 clause: Self.responseClause)

        // 2. Transcript from what the server kept; it is the HPKE info, so another origin or encryptionInfo fails here.
        let transcript = session.transcript

        // 3. HPKE open: info = the untagged transcript, aad empty.
        let plaintext: [UInt8]
        do {
            plaintext = try timings.measure(\.hpke) {
                try HPKE.open(suite: .p256SHA256AES128GCM, recipientKey: session.privateKey, encapsulatedKey: envelope.enc,
                              ciphertext: envelope.cipherText, info: transcript.bytes, aad: [UInt8]())
            }
        } catch {
            log.fail("hpke.open", .hpkeOpenFailed,
                     "HPKE open failed: not encrypted to this session's key, or for another origin or encryptionInfo (\(error))",
                     clause: Self.hpkeClause)
            return finish()
        }
        log.pass("hpke.open", "\(plaintext.count)-byte DeviceResponse decrypted with the dcapi transcript", clause: Self.hpkeClause)

        // 4. The plaintext is the bare DeviceResponse; verify it with the same transcript.
        let item: CBORItem
        do {
            item = try timings.measure(\.decode) { try CBORDecoder.decode(plaintext, limits: configuration.cborLimits) }
        } catch {
            log.fail("response.decode", .responseMalformed, "decrypted DeviceResponse is not well-formed CBOR: \(error)",
                     clause: "RFC 8949 §5.3 (well-formedness)")
            return finish()
        }
        let outcome = mdoc.verify(deviceResponse: item, transcript: transcript, time: time, request: session.request)
        log.append(contentsOf: outcome.log)
        timings += outcome.timings
        return finish(outcome.documents)
    }
}
