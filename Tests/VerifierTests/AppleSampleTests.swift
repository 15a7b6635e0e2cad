import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import Testing
import TestSupport
import Verifier

@Suite("Apple Verify with Wallet: the signed sample")
struct AppleSampleTests {
    @Test("verifies at 2022-06-01 in test mode against the sample's test IACA, with the elements Apple sent")
    func verifies() throws {
        var session = AppleFixtures.session
        session.request = RequestPolicy(documents: [.init(docType: "org.iso.18013.5.1.mDL",
                                                          nameSpaces: AppleSampleVector.requestedNameSpaces)])
        let report = try AppleFixtures.verifier().verify(
            encryptedData: AppleSampleVector.envelope, session: session, at: AppleSampleVector.validTime)
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.verified)
        #expect(report.assurance == .test)
        #expect(report.format == .appleApp)
        let document = try #require(report.documents.first)
        #expect(document.docType == "org.iso.18013.5.1.mDL")
        let iso = "org.iso.18013.5.1"
        #expect(document.value(iso, "given_name") == .text("Jane"))
        #expect(document.value(iso, "family_name") == .text("Doe"))
        #expect(document.value(iso, "birth_date") == .fullDate("1976-04-01"))
        // age_over_21 was asked and the sample answers with age_in_years: the answer is derived, the exact age withheld.
        #expect(document.value(iso, "age_in_years") == nil)
        #expect(document.value(iso, "age_over_21") == .bool(true))
        #expect(document.elements[iso]?["age_over_21"]?.derivedFrom == "age_in_years")
        #expect(document.value(iso, "document_number") == .text("TEST1234567"))
        guard case .bytes(let portrait)? = document.value(iso, "portrait") else {
            Issue.record("portrait is not a byte string")
            return
        }
        #expect(portrait.count == 1042)
        #expect(portrait.starts(with: [0xFF, 0xD8, 0xFF]))
        #expect(document.elements[iso]?.count == 17)
        #expect(document.elements["org.iso.18013.5.1.aamva"]?.count == 5)
        // age_over_21 was answered (derived); `sex` is missing.
        #expect(document.missing == ["org.iso.18013.5.1/sex"])
        #expect(document.elements[iso]?["family_name"]?.intentToRetain == true)
        #expect(document.elements[iso]?["given_name"]?.intentToRetain == false)
        #expect(document.issuer.documentSigner.contains("PassKit Identity Test Document Signing"))
        #expect(document.issuer.root?.contains("PassKit Identity Test Issuer Root CA") == true)
        #expect(document.validity.validUntil == VectorFiles.date("2023-03-22T22:48:31Z"))
        // Apple's test DS deviates from Annex B; the default profile reports it as warnings.
        #expect(report.checks.contains { $0.id == .issuerCertificateProfile && $0.status == .warn })
        let mustPass: [CheckID] = [.envelopeRecipient, .envelopeTranscript, .hpkeOpen, .issuerSignature, .issuerCertificateChain,
                                   .msoValidity, .msoDocType, .digestValues, .deviceAuthentication, .policyElements]
        for id in mustPass {
            #expect(report.checks.contains { $0.id == id && $0.status == .pass }, "\(id) should pass")
        }
        #expect(report.checks.first { $0.id == .digestValues }?.detail.hasPrefix("22 of 22") == true)
    }

    @Test("refused with envelope.test_key outside test mode, and the test key cannot be loaded there")
    func testKeyRefused() throws {
        #expect(throws: VerificationError(.envelopeTestKey, "refusing to load Apple's published test key outside test mode")) {
            _ = try AppleFixtures.verifier(testMode: false)
        }
        let production = try AppleFixtures.verifier(testMode: false, keys: [PrivateKey.generate(.p256)])
        let report = production.verify(encryptedData: AppleSampleVector.envelope, session: AppleFixtures.session, at: AppleSampleVector.validTime)
        #expect(report.errors.map(\.code) == [.envelopeTestKey])
        #expect(!report.verified)
        #expect(report.documents.isEmpty)
    }

    @Test("expired at 2024-01-01 (mso.expired)")
    func expired() throws {
        let report = try AppleFixtures.verifier().verify(
            encryptedData: AppleSampleVector.envelope, session: AppleFixtures.session, at: VectorFiles.date("2024-01-01T00:00:00Z"))
        #expect(report.errors.map(\.code) == [.msoExpired])
        #expect(report.documents.isEmpty)
    }

    @Test("not yet valid before 2022-03-31 (mso.not_yet_valid, issuer.certificate_expired)")
    func notYetValid() throws {
        let report = try AppleFixtures.verifier().verify(
            encryptedData: AppleSampleVector.envelope, session: AppleFixtures.session, at: VectorFiles.date("2022-03-01T00:00:00Z"))
        let codes = Set(report.errors.map(\.code))
        #expect(codes.contains(.msoNotYetValid))
        #expect(codes.contains(.issuerCertificateExpired))
    }

    @Test("another team ID, merchant ID or nonce: envelope.transcript_mismatch before decrypting")
    func transcriptMismatch() throws {
        let verifier = try AppleFixtures.verifier()
        var sessions: [AppleAppSession] = []
        var other = AppleFixtures.session
        other.teamID = "ABCDE12345"
        sessions.append(other)
        other = AppleFixtures.session
        other.merchantID = "merchant.com.example"
        sessions.append(other)
        other = AppleFixtures.session
        other.nonce[0] ^= 0x01
        sessions.append(other)
        for session in sessions {
            let report = verifier.verify(encryptedData: AppleSampleVector.envelope, session: session, at: AppleSampleVector.validTime)
            #expect(report.errors.map(\.code) == [.envelopeTranscriptMismatch])
            #expect(!report.checks.contains { $0.id == .hpkeOpen })
        }
    }

    @Test("untrusted root: issuer.chain_untrusted; strict profile: issuer.certificate_profile")
    func trustAndProfile() throws {
        let otherRoot = try AnnexDVector.iaca()
        let untrusted = try AppleFixtures.verifier(anchors: [otherRoot]).verify(
            encryptedData: AppleSampleVector.envelope, session: AppleFixtures.session, at: AppleSampleVector.validTime)
        #expect(untrusted.errors.map(\.code).contains(.issuerChainUntrusted))
        let empty = try AppleFixtures.verifier(anchors: []).verify(
            encryptedData: AppleSampleVector.envelope, session: AppleFixtures.session, at: AppleSampleVector.validTime)
        #expect(empty.errors.map(\.code) == [.issuerChainUntrusted])
        let strict = try AppleFixtures.verifier(profile: .strict).verify(
            encryptedData: AppleSampleVector.envelope, session: AppleFixtures.session, at: AppleSampleVector.validTime)
        #expect(Set(strict.errors.map(\.code)) == [.issuerCertificateProfile])
        #expect(strict.documents.isEmpty)
    }

    @Test("requested docType and elements: policy.doctype_not_requested, policy.element_not_requested")
    func requestPolicy() throws {
        var session = AppleFixtures.session
        session.request = RequestPolicy(documents: [.init(docType: "org.iso.23220.photoid.1", nameSpaces: [:])])
        let verifier = try AppleFixtures.verifier()
        let wrongType = verifier.verify(encryptedData: AppleSampleVector.envelope, session: session, at: AppleSampleVector.validTime)
        #expect(wrongType.errors.map(\.code) == [.policyDocTypeNotRequested])
        session.request = RequestPolicy(documents: [.init(docType: "org.iso.18013.5.1.mDL", nameSpaces: ["org.iso.18013.5.1": ["family_name": false]])])
        let tooMuch = verifier.verify(encryptedData: AppleSampleVector.envelope, session: session, at: AppleSampleVector.validTime)
        #expect(Set(tooMuch.errors.map(\.code)) == [.policyElementNotRequested])
        #expect(tooMuch.errors.count == 21)
        #expect(!tooMuch.errors.contains { $0.message.contains("org.iso.18013.5.1/family_name ") })
        #expect(tooMuch.documents.isEmpty)
    }

    @Test("the JSON report has the documented shape and no element values when rejected")
    func jsonShape() throws {
        let verifier = try AppleFixtures.verifier()
        let good = verifier.verify(encryptedData: AppleSampleVector.envelope, session: AppleFixtures.session, at: AppleSampleVector.validTime)
        let json = good.json.serialized()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["verified"] as? Bool == true)
        #expect(object["format"] as? String == "apple-app")
        #expect(object["assurance"] as? String == "test")
        let documents = try #require(object["documents"] as? [[String: Any]])
        let elements = try #require(documents.first?["elements"] as? [String: [String: Any]])
        #expect(elements["org.iso.18013.5.1"]?["family_name"] as? String == "Doe")
        #expect(elements["org.iso.18013.5.1"]?["birth_date"] as? String == "1976-04-01")
        #expect(elements["org.iso.18013.5.1"]?["age_in_years"] as? Int == 42)
        let portrait = try #require(elements["org.iso.18013.5.1"]?["portrait"] as? String)
        #expect(Data(base64Encoded: portrait)?.count == 1042)

        let bad = verifier.verify(encryptedData: AppleSampleVector.envelope, session: AppleFixtures.session, at: VectorFiles.date("2024-01-01T00:00:00Z"))
        let badJSON = bad.json.serialized()
        #expect(!badJSON.contains("Jane"))
        #expect(!badJSON.contains("Doe"))
        let badObject = try #require(try JSONSerialization.jsonObject(with: Data(badJSON.utf8)) as? [String: Any])
        #expect((badObject["documents"] as? [Any])?.isEmpty == true)
        let errors = try #require(badObject["errors"] as? [[String: String]])
        #expect(errors.first?["code"] == "mso.expired")
    }
}
