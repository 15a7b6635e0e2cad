import CBOR
import CryptoCore
import Foundation
import HPKE
import Mdoc
import MdocModel
import MdocTrust
import TestSupport
import Verifier

/// Builds verifiers and (re-)encrypted envelopes around Apple's sample for the Apple-format tests.
enum AppleFixtures {
    static func verifier(testMode: Bool = true, anchors: [Certificate]? = nil, profile: CertificateProfile = .default,
                         keys: [PrivateKey]? = nil) throws -> AppleAppVerifier {
        let store = TrustStore(anchors: try anchors ?? [AppleSampleVector.root()])
        return try AppleAppVerifier(
            configuration: VerifierConfiguration(trustStore: store, profile: profile, testMode: testMode),
            keys: try keys ?? [AppleSampleVector.merchantKey()])
    }

    static var session: AppleAppSession {
        AppleAppSession(nonce: AppleSampleVector.nonce, merchantID: AppleSampleVector.merchantID, teamID: AppleSampleVector.teamID)
    }

    /// An APPLE-HPKE-v1 envelope around `plaintext`, encrypted to `recipient` for the sample's transcript.
    static func envelope(plaintext: [UInt8], recipient: PublicKey? = nil, transcript: [UInt8]? = nil,
                         algorithm: String = "APPLE-HPKE-v1", mode: UInt64 = 0, infoHash: [UInt8]? = nil) throws -> [UInt8] {
        let key = try recipient ?? AppleSampleVector.merchantKey().publicKey
        let info = transcript ?? AppleSampleVector.transcript
        let sender = try HPKE.SenderContext(suite: .p256SHA256AES128GCM, recipientKey: key, info: info)
        let ciphertext = try sender.seal(plaintext, aad: [])
        return CBOREncoder.encode(.map([
            (.text("algorithm"), .text(algorithm)),
            (.text("params"), .map([
                (.text("mode"), .unsigned(mode)),
                (.text("pkEm"), .bytes(sender.encapsulatedKey)),
                (.text("pkRHash"), .bytes(Digest.hash(.sha256, key.uncompressedPoint))),
                (.text("infoHash"), .bytes(infoHash ?? Digest.hash(.sha256, info))),
            ])),
            (.text("data"), .bytes(ciphertext)),
        ]))
    }

    /// Replaces the first occurrence of `pattern` in `bytes` (which must occur) by `replacement` of equal length.
    static func replacing(_ pattern: [UInt8], with replacement: [UInt8], in bytes: [UInt8], occurrence: Int = 0) -> [UInt8] {
        precondition(pattern.count == replacement.count)
        var found = 0
        var i = 0
        while i + pattern.count <= bytes.count {
            if bytes[i ..< i + pattern.count].elementsEqual(pattern) {
                if found == occurrence {
                    var out = bytes
                    out.replaceSubrange(i ..< i + pattern.count, with: replacement)
                    return out
                }
                found += 1
            }
            i += 1
        }
        fatalError("pattern not found in the sample plaintext")
    }

    /// The sample verified with `plaintext` re-encrypted to the sample key.
    static func verifyModified(_ plaintext: [UInt8], request: RequestPolicy? = nil) throws -> VerificationReport {
        var session = self.session
        session.request = request
        return try verifier().verify(encryptedData: envelope(plaintext: plaintext), session: session, at: AppleSampleVector.validTime)
    }

    static func utf8(_ s: String) -> [UInt8] { Array(s.utf8) }
}

/// Rebuilding received CBOR with one part changed; every other item is spliced back byte for byte.
enum CBORSurgery {
    enum Step { case key(String), intKey(Int64), index(Int) }

    static func rebuild(_ item: CBORItem, at path: ArraySlice<Step>, _ change: (CBORItem) -> CBORValue) -> CBORValue {
        guard let step = path.first else { return change(item) }
        let rest = path.dropFirst()
        switch (step, item.value) {
        case (.key(let key), .map(let entries)):
            return .map(entries.map { entry in
                (entry.key.asValue, entry.key.text == key ? rebuild(entry.value, at: rest, change) : entry.value.asValue)
            })
        case (.intKey(let key), .map(let entries)):
            return .map(entries.map { entry in
                (entry.key.asValue, entry.key.int == key ? rebuild(entry.value, at: rest, change) : entry.value.asValue)
            })
        case (.index(let index), .array(let items)):
            return .array(items.enumerated().map { $0.offset == index ? rebuild($0.element, at: rest, change) : $0.element.asValue })
        default:
            fatalError("path does not fit the structure")
        }
    }

    static func rebuild(_ bytes: [UInt8], at path: [Step], _ change: (CBORItem) -> CBORValue) throws -> [UInt8] {
        CBOREncoder.encode(rebuild(try CBORDecoder.decode(bytes), at: path[...], change))
    }

    /// Path to the first document of Apple's `{"identity": DeviceResponse}` plaintext.
    static let document: [Step] = [.key("identity"), .key("documents"), .index(0)]
}
