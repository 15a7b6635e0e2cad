import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import Testing
import TestSupport

/// The ISO/IEC 18013-5 Annex D worked example and its negative variants, as `annex-d/expected.json` states them.
@Suite("ISO 18013-5 Annex D example")
struct AnnexDVerificationTests {
    struct Expected: Decodable {
        struct Mutation: Decodable { let offset: Int; let from: String; let to: String }
        struct Variant: Decodable { let id: String; let mutation: Mutation; let must_fail: String; let must_pass: [String] }
        let byte_flip_variants: [Variant]
    }

    /// Our check ids for the names used in expected.json.
    static let checkIDs: [String: CheckID] = [
        "issuer_signature": .issuerSignature,
        "certificate_chain": .issuerCertificateChain,
        "mso_validity": .msoValidity,
        "doc_type_match": .msoDocType,
        "value_digests": .digestValues,
        "device_auth": .deviceAuthentication,
    ]

    static func verify(_ response: [UInt8], at time: Date = AnnexDVector.validTime, anchors: [Certificate]? = nil,
                       readerKey: PrivateKey? = nil) throws -> MdocVerifier.Outcome {
        let verifier = MdocVerifier(trustStore: TrustStore(anchors: try anchors ?? [AnnexDVector.iaca()]), options: MdocVerificationOptions())
        return verifier.verify(
            deviceResponse: try CBORDecoder.decode(response),
            transcript: try SessionTranscript(encoded: AnnexDVector.sessionTranscriptBytes),
            time: time, readerKey: try readerKey ?? AnnexDVector.readerKey(), request: nil)
    }

    static func status(_ outcome: MdocVerifier.Outcome, _ id: CheckID) -> [CheckStatus] {
        outcome.log.checks.filter { $0.id == id }.map(\.status)
    }

    @Test("verifies at 2021-01-01 with the utopia IACA and the reader key (deviceMac)")
    func verifies() throws {
        let outcome = try Self.verify(AnnexDVector.deviceResponse)
        #expect(outcome.log.errors.isEmpty, "\(outcome.log.errors)")
        let document = try #require(outcome.documents.first)
        #expect(document.docType == "org.iso.18013.5.1.mDL")
        #expect(document.value("org.iso.18013.5.1", "family_name") == .text("Doe"))
        #expect(document.elements["org.iso.18013.5.1"]?.count == 6)
        #expect(document.issuer.root == "CN=utopia iaca,C=US" || document.issuer.root?.contains("utopia iaca") == true)
        for id in Self.checkIDs.values {
            #expect(Self.status(outcome, id) == [.pass], "\(id)")
        }
        // The utopia certificates carry the CRL distribution point as a dNSName: a warning under the default profile.
        #expect(outcome.log.checks.contains { $0.id == .issuerCertificateProfile && $0.status == .warn && $0.detail.contains("crl_distribution_point") })
    }

    @Test("each byte-flip variant fails exactly the check expected.json names")
    func byteFlips() throws {
        let expected = try JSONDecoder().decode(Expected.self, from: Data(VectorFiles.text(AnnexDVector.folder + "expected.json").utf8))
        #expect(expected.byte_flip_variants.count == 3)
        for variant in expected.byte_flip_variants {
            var bytes = AnnexDVector.deviceResponse
            let from = try #require(UInt8(variant.mutation.from.dropFirst(2), radix: 16))
            let to = try #require(UInt8(variant.mutation.to.dropFirst(2), radix: 16))
            #expect(bytes[variant.mutation.offset] == from, "\(variant.id)")
            bytes[variant.mutation.offset] = to
            let outcome = try Self.verify(bytes)
            let failing = try #require(Self.checkIDs[variant.must_fail])
            #expect(Self.status(outcome, failing).contains(.fail), "\(variant.id) should fail \(failing)")
            for name in variant.must_pass {
                let id = try #require(Self.checkIDs[name])
                #expect(Self.status(outcome, id) == [.pass], "\(variant.id): \(id) should pass")
            }
            #expect(outcome.documents.isEmpty, "no element may leave a failed verification")
        }
    }

    @Test("at 2021-10-02 both the DS certificate and the MSO have expired")
    func expired() throws {
        let outcome = try Self.verify(AnnexDVector.deviceResponse, at: VectorFiles.date("2021-10-02T00:00:00Z"))
        let codes = Set(outcome.log.errors.map(\.code))
        #expect(codes.contains(.issuerCertificateExpired))
        #expect(codes.contains(.msoExpired))
        #expect(Self.status(outcome, .issuerSignature) == [.pass])
        #expect(Self.status(outcome, .digestValues) == [.pass])
    }

    @Test("without a trust anchor the chain is untrusted")
    func noAnchor() throws {
        let outcome = try Self.verify(AnnexDVector.deviceResponse, anchors: [])
        #expect(outcome.log.errors.map(\.code).contains(.issuerChainUntrusted))
        #expect(outcome.documents.isEmpty)
    }

    @Test("deviceMac without the reader key is device.auth_missing, with another reader key device.mac_invalid")
    func macNeedsReaderKey() throws {
        let verifier = MdocVerifier(trustStore: TrustStore(anchors: [try AnnexDVector.iaca()]), options: MdocVerificationOptions())
        let transcript = try SessionTranscript(encoded: AnnexDVector.sessionTranscriptBytes)
        let item = try CBORDecoder.decode(AnnexDVector.deviceResponse)
        let withoutKey = verifier.verify(deviceResponse: item, transcript: transcript, time: AnnexDVector.validTime, readerKey: nil, request: nil)
        #expect(withoutKey.log.errors.map(\.code) == [.deviceAuthMissing])
        let otherKey = try PrivateKey.generate(.p256)
        let withOther = verifier.verify(deviceResponse: item, transcript: transcript, time: AnnexDVector.validTime, readerKey: otherKey, request: nil)
        #expect(withOther.log.errors.map(\.code) == [.deviceMacInvalid])
    }

    @Test("strict profile turns the Annex D CRL distribution point deviation into issuer.certificate_profile")
    func strictProfile() throws {
        let verifier = MdocVerifier(trustStore: TrustStore(anchors: [try AnnexDVector.iaca()]), options: MdocVerificationOptions(profile: .strict))
        let outcome = verifier.verify(
            deviceResponse: try CBORDecoder.decode(AnnexDVector.deviceResponse),
            transcript: try SessionTranscript(encoded: AnnexDVector.sessionTranscriptBytes),
            time: AnnexDVector.validTime, readerKey: try AnnexDVector.readerKey(), request: nil)
        #expect(outcome.log.errors.map(\.code).contains(.issuerCertificateProfile))
        #expect(outcome.documents.isEmpty)
    }
}
