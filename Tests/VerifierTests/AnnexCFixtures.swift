import CBOR
import CryptoCore
import Foundation
import HPKE
import Mdoc
import MdocModel
import MdocTesting
import TestSupport
import Verifier

/// Helpers for the Annex C tests: a reader PKI, and EncryptedResponses built around any plaintext.
enum AnnexCFixtures {
    static let origin = "https://shop.example"
    static let mDL = "org.iso.18013.5.1.mDL"
    static let isoNameSpace = "org.iso.18013.5.1"
    static let policy = RequestPolicy(documents: [
        .init(docType: mDL, nameSpaces: [isoNameSpace: ["family_name": false, "given_name": false, "age_over_21": true]]),
    ])

    /// A reader root and a reader certificate with EKU 1.0.18013.5.1.6.
    static func readerPKI() throws -> (root: Certificate, identity: ReaderIdentity) {
        let pki = try TestReaderPKI.shared(commonName: "shop.example reader")
        return (pki.root, pki.identity)
    }

    /// `{"response": b64url(["dcapi", {"enc", "cipherText"}])}` around `plaintext`, sealed for `transcript`.
    static func response(plaintext: [UInt8], recipient: PublicKey, transcript: SessionTranscript) throws -> String {
        let sealed = try HPKE.seal(suite: .p256SHA256AES128GCM, recipientKey: recipient, info: transcript.bytes, plaintext: plaintext)
        return json(envelope(enc: .bytes(sealed.encapsulatedKey), cipherText: .bytes(sealed.ciphertext)))
    }

    static func envelope(identifier: String = "dcapi", enc: CBORValue, cipherText: CBORValue, extra: [(CBORValue, CBORValue)] = []) -> [UInt8] {
        CBOREncoder.encode(.array([.text(identifier), .map([(.text("enc"), enc), (.text("cipherText"), cipherText)] + extra)]))
    }

    static func json(_ envelope: [UInt8]) -> String { #"{"response":""# + Base64URL.encode(envelope) + #""}"# }

    /// The Annex C verifier trusting `anchors`.
    static func verifier(anchors: [Certificate]) -> AnnexCVerifier {
        AnnexCVerifier(configuration: VerifierConfiguration(trustStore: TrustStore(anchors: anchors)))
    }
}
