import CBOR
import CryptoCore
import Foundation
import HPKE
import Mdoc

/// What the server knows about one Apple in-app request, out of band (never read from the response).
public struct AppleAppSession: Sendable {
    public var nonce: [UInt8]
    public var merchantID: String
    public var teamID: String
    /// What was asked for; nil skips the request-policy check.
    public var request: RequestPolicy?

    public init(nonce: [UInt8], merchantID: String, teamID: String, request: RequestPolicy? = nil) {
        self.nonce = nonce
        self.merchantID = merchantID
        self.teamID = teamID
        self.request = request
    }
}

/// Verifies Apple "Verify with Wallet" in-app responses (`PKIdentityDocument.encryptedData`): envelope →
/// pkRHash and infoHash before decrypting → HPKE open → `{"identity": DeviceResponse}` → the mdoc checks.
public final class AppleAppVerifier: Sendable {
    public let configuration: VerifierConfiguration
    public let keys: RecipientKeyRing
    let mdoc: MdocVerifier

    static let envelopeClause = "Apple, Verifying Wallet identity requests (APPLE-HPKE-v1)"
    static let hpkeClause = "RFC 9180 §5.1, §6.1 (base mode, DHKEM(P-256), HKDF-SHA256, AES-128-GCM)"

    /// Fails when a key is not P-256, or is Apple's test key while test mode is off.
    public init(configuration: VerifierConfiguration, keys: [PrivateKey]) throws(VerificationError) {
        self.configuration = configuration
        self.keys = try RecipientKeyRing(keys: keys, allowTestKey: configuration.testMode)
        self.mdoc = MdocVerifier(
            trustStore: configuration.trustStore,
            options: MdocVerificationOptions(profile: configuration.profile, clockSkew: configuration.clockSkew, allowDeviceMac: false))
    }

    public func verify(encryptedData: [UInt8], session: AppleAppSession, at time: Date = Date()) -> VerificationReport {
        var log = CheckLog()
        var timings = StageTimings()
        let assurance: VerificationReport.Assurance = configuration.testMode ? .test : .production
        func finish(_ documents: [VerifiedDocument] = []) -> VerificationReport {
            VerificationReport(format: .appleApp, assurance: assurance, log: log, documents: documents, timings: timings)
        }

        // 1. Envelope.
        let envelope: AppleEnvelope
        do {
            envelope = try timings.measure(\.decode) { () throws(VerificationError) -> AppleEnvelope in
                let item: CBORItem
                do {
                    item = try CBORDecoder.decode(encryptedData, limits: configuration.cborLimits)
                } catch {
                    throw VerificationError(.inputMalformed, "response is not well-formed CBOR: \(error)")
                }
                return try AppleEnvelope(item)
            }
        } catch {
            log.fail("envelope.structure", error.code, error.message, clause: Self.envelopeClause)
            return finish()
        }
        log.pass("envelope.structure", "\(envelope.data.count)-byte ciphertext", clause: Self.envelopeClause)
        guard envelope.algorithm == AppleEnvelope.algorithmName, envelope.mode == 0 else {
            log.fail("envelope.algorithm", .envelopeUnsupported,
                     "algorithm \(envelope.algorithm) mode \(envelope.mode); only \(AppleEnvelope.algorithmName) mode 0 is supported",
                     clause: Self.envelopeClause)
            return finish()
        }
        guard envelope.pkEm.count == 65, envelope.pkEm.first == 0x04 else {
            log.fail("envelope.algorithm", .inputMalformed, "pkEm is not a 65-byte uncompressed P-256 point", clause: Self.envelopeClause)
            return finish()
        }
        log.pass("envelope.algorithm", "\(AppleEnvelope.algorithmName), mode 0", clause: Self.envelopeClause)

        // 2. Recipient key: Apple's test key only in test mode; otherwise one of ours, chosen by pkRHash.
        let isTestKey = constantTimeEquals(envelope.pkRHash, RecipientKeyRing.appleTestKeyHash)
        if isTestKey && !configuration.testMode {
            log.fail("envelope.test_key", .envelopeTestKey,
                     "response is encrypted to Apple's published test key (iOS Simulator or sample); refused outside test mode",
                     clause: Self.envelopeClause)
            return finish()
        }
        if isTestKey {
            log.warn("envelope.test_key", "encrypted to Apple's published test key; accepted in test mode", clause: Self.envelopeClause)
        }
        guard let recipient = keys.key(for: envelope.pkRHash) else {
            log.fail("envelope.recipient", .envelopeRecipientMismatch,
                     "pkRHash matches none of the \(keys.entries.count) configured decryption key(s)", clause: Self.envelopeClause)
            return finish()
        }
        log.pass("envelope.recipient", "pkRHash matches a configured key", clause: Self.envelopeClause)

        // 3. Session transcript from server-side values; infoHash tells whether the wallet used the same one.
        let transcript = SessionTranscript.appleInApp(
            nonce: session.nonce, merchantID: session.merchantID, teamID: session.teamID, recipientKeyHash: recipient.pkRHash)
        guard constantTimeEquals(Digest.hash(.sha256, transcript.bytes), envelope.infoHash) else {
            log.fail("envelope.transcript", .envelopeTranscriptMismatch,
                     "infoHash differs from SHA-256 of our session transcript: wrong nonce, merchant ID or team ID",
                     clause: Self.envelopeClause)
            return finish()
        }
        log.pass("envelope.transcript", "infoHash matches our AppleIdentityPresentment_1.0 transcript", clause: Self.envelopeClause)

        // 4. HPKE open.
        let plaintext: [UInt8]
        do {
            plaintext = try timings.measure(\.hpke) {
                try HPKE.open(suite: .p256SHA256AES128GCM, recipientKey: recipient.key, encapsulatedKey: envelope.pkEm,
                              ciphertext: envelope.data, info: transcript.bytes, aad: [UInt8]())
            }
        } catch {
            log.fail("hpke.open", .hpkeOpenFailed, "HPKE open failed: \(error)", clause: Self.hpkeClause)
            return finish()
        }
        log.pass("hpke.open", "\(plaintext.count)-byte plaintext", clause: Self.hpkeClause)

        // 5. {"identity": DeviceResponse} → mdoc checks.
        let identity: CBORItem
        do {
            identity = try timings.measure(\.decode) { () throws(VerificationError) -> CBORItem in
                let topics: CBORItem
                do {
                    topics = try CBORDecoder.decode(plaintext, limits: configuration.cborLimits)
                } catch {
                    throw VerificationError(.responseMalformed, "plaintext is not well-formed CBOR: \(error)")
                }
                guard topics.map != nil, let identity = topics["identity"] else {
                    throw VerificationError(.responseMalformed, "plaintext has no `identity` entry")
                }
                return identity
            }
        } catch {
            log.fail("response.topics", error.code, error.message, clause: Self.envelopeClause)
            return finish()
        }
        let outcome = mdoc.verify(deviceResponse: identity, transcript: transcript, time: time, request: session.request)
        log.append(contentsOf: outcome.log)
        timings += outcome.timings
        return finish(outcome.documents)
    }
}
