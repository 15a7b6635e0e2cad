import CBOR
import CryptoCore
import Foundation
import HPKE
import Mdoc
import MdocModel
import MdocTesting
import MdocTrust
import Testing
import TestSupport
import Verifier

/// Request → simulated wallet (MdocTesting) → verify, for ISO/IEC TS 18013-7 Annex C. The wallet sees only what
/// a browser hands it: the two base64url strings of `data` and the origin.
@Suite("Annex C round trip with the MdocTesting wallet")
struct AnnexCRoundTripTests {
    static let time = VectorFiles.date("2026-06-01T12:00:00Z")

    /// The simulated wallet: parses `data`, signs a DeviceResponse over the Annex C transcript of the strings
    /// it got and the origin the browser asserts, and seals it to the recipient key inside encryptionInfo.
    struct Wallet {
        let pki: TestPKI
        var signingOrigin: String? = nil
        var signingEncryptionInfo: String? = nil

        init(seed: UInt64 = 11) throws {
            pki = try TestPKI.shared(seed: seed, at: AnnexCRoundTripTests.time)
        }

        func respond(to request: AnnexCWebRequest, origin: String, configure: (inout SimulationOptions) -> Void = { _ in }) throws
            -> (json: String, deviceResponse: [UInt8]) {
            let info = try AnnexCEncryptionInfo(base64URL: request.encryptionInfo)
            let deviceRequest = try DeviceRequest(decoding: try #require(Base64URL.decode(request.deviceRequest)))
            let asked = try #require(deviceRequest.docRequests.first?.itemsRequest)
            var options = SimulationOptions(time: AnnexCRoundTripTests.time)
            options.docType = asked.docType
            options.elements = asked.nameSpaces.flatMap { ns in ns.elements.map { ElementID(ns.name, $0.identifier) } }
            configure(&options)
            let signed = SessionTranscript.annexC(encryptionInfo: signingEncryptionInfo ?? request.encryptionInfo,
                                                  origin: signingOrigin ?? origin)
            let response = try MdocSimulator(pki: pki).simulate(.deviceResponse(signed), options: options)
            let sealed = try AnnexCResponseBuilder.seal(deviceResponse: response.deviceResponse, recipientKey: info.recipientPublicKey,
                                                        transcript: .annexC(encryptionInfo: request.encryptionInfo, origin: origin))
            return (#"{"response":""# + sealed + #""}"#, response.deviceResponse)
        }
    }

    static func verify(_ json: String, session: AnnexCSession, pki: TestPKI, revocation: SimulatedRevocation? = nil) -> VerificationReport {
        let configuration = VerifierConfiguration(trustStore: pki.trustStore, revocation: revocation == nil ? .soft : .hard,
                                                  revocationSource: revocation?.source)
        return AnnexCVerifier(configuration: configuration).verify(response: json, session: session, at: time)
    }

    @Test("Unsigned request → wallet → verified annex-c report with exactly the requested elements")
    func roundTrip() throws {
        let request = try AnnexCWebRequest.create(origin: AnnexCFixtures.origin, request: AnnexCFixtures.policy)
        let wallet = try Wallet()
        let (json, _) = try wallet.respond(to: request, origin: AnnexCFixtures.origin)
        let report = Self.verify(json, session: request.session, pki: wallet.pki)
        #expect(report.verified, "\(ReportSummary.text(report))")
        #expect(report.format == .annexC)
        #expect(report.checks.first { $0.id == .deviceAuthentication }?.status == .pass)
        let document = try #require(report.documents.first)
        #expect(document.docType == AnnexCFixtures.mDL)
        let returned = Set((document.elements[AnnexCFixtures.isoNameSpace] ?? [:]).keys)
        #expect(returned == ["family_name", "given_name", "age_over_21"])
        #expect(document.elements[AnnexCFixtures.isoNameSpace]?["age_over_21"]?.intentToRetain == true)
        #expect(document.missing.isEmpty)
        #expect(report.json.serialized().contains(#""format":"annex-c""#))
    }

    @Test("Signed request (readerAuthAll) round-trips the same way")
    func signedRoundTrip() throws {
        let (_, identity) = try AnnexCFixtures.readerPKI()
        let request = try AnnexCWebRequest.create(origin: AnnexCFixtures.origin, request: AnnexCFixtures.policy, reader: identity)
        let wallet = try Wallet()
        let report = Self.verify(try wallet.respond(to: request, origin: AnnexCFixtures.origin).json, session: request.session, pki: wallet.pki)
        #expect(report.verified, "\(ReportSummary.text(report))")
    }

    @Test("MdocTesting's own Annex C target builds the same encryptionInfo string and its response verifies")
    func simulatorAnnexCTarget() throws {
        let request = try AnnexCWebRequest.create(origin: AnnexCFixtures.origin, request: AnnexCFixtures.policy)
        let info = try AnnexCEncryptionInfo(base64URL: request.encryptionInfo)
        let target = MdocTesting.AnnexCRequest(recipientKey: request.session.privateKey, nonce: info.nonce, origin: AnnexCFixtures.origin)
        #expect(target.encryptionInfo == request.encryptionInfo)
        let wallet = try Wallet()
        var options = SimulationOptions(time: Self.time)
        options.elements = [ElementID(AnnexCFixtures.isoNameSpace, "family_name")]
        options.request = AnnexCFixtures.policy
        let response = try MdocSimulator(pki: wallet.pki).simulate(.annexC(target), options: options)
        let report = Self.verify(try #require(response.annexCResponse), session: request.session, pki: wallet.pki)
        #expect(expectation(report, response.expected) == nil)
        #expect(report.verified)
        #expect(report.documents.first?.missing == ["org.iso.18013.5.1/age_over_21", "org.iso.18013.5.1/given_name"])
    }

    @Test("Device signature over an origin or encryptionInfo one character off: device.signature_invalid and nothing else")
    func deviceSignatureOneCharacterOff() throws {
        let request = try AnnexCWebRequest.create(origin: AnnexCFixtures.origin, request: AnnexCFixtures.policy)
        var changed = Array(request.encryptionInfo)
        changed[changed.count - 1] = changed[changed.count - 1] == "A" ? "B" : "A"
        for (origin, encryptionInfo) in [("https://shop.exampla", nil), (nil, String(changed))] as [(String?, String?)] {
            // The wallet encrypts for the right session but signs over the altered value.
            var wallet = try Wallet()
            wallet.signingOrigin = origin
            wallet.signingEncryptionInfo = encryptionInfo
            let report = Self.verify(try wallet.respond(to: request, origin: AnnexCFixtures.origin).json, session: request.session, pki: wallet.pki)
            #expect(report.checks.first { $0.id == .hpkeOpen }?.status == .pass)
            #expect(report.errors.map(\.code) == [.deviceSignatureInvalid], "\(ReportSummary.text(report))")
            #expect(report.documents.isEmpty)
        }
    }

    @Test("A correct response checked with an origin or encryptionInfo one character off: the device signature fails, and so does HPKE")
    func verifierGivenOtherValues() throws {
        let request = try AnnexCWebRequest.create(origin: AnnexCFixtures.origin, request: AnnexCFixtures.policy)
        let wallet = try Wallet()
        let (json, deviceResponse) = try wallet.respond(to: request, origin: AnnexCFixtures.origin)
        var changed = Array(request.encryptionInfo)
        changed[0] = changed[0] == "g" ? "h" : "g"
        let others = [
            SessionTranscript.annexC(encryptionInfo: request.encryptionInfo, origin: "https://shop.exampla"),
            SessionTranscript.annexC(encryptionInfo: String(changed), origin: AnnexCFixtures.origin),
        ]
        for transcript in others {
            // The decrypted DeviceResponse against the other transcript: only the device signature fails.
            let bare = DeviceResponseVerifier(configuration: VerifierConfiguration(trustStore: wallet.pki.trustStore))
                .verify(deviceResponse: deviceResponse, transcript: transcript, at: Self.time)
            #expect(bare.errors.map(\.code) == [.deviceSignatureInvalid])
        }
        // Through the Annex C front end the transcript is also the HPKE info, so decryption fails first.
        let session = AnnexCSession(privateKey: request.session.privateKey, encryptionInfo: request.encryptionInfo,
                                    origin: "https://shop.exampla", request: nil)
        #expect(Self.verify(json, session: session, pki: wallet.pki).errors.map(\.code) == [.hpkeOpenFailed])
    }

    /// One fault per error area: the library's `AnnexCWebRequest` and `AnnexCVerifier` pass the outcome through that
    /// `FaultTableTests` asserts for every fault (there through the kit's own Annex C request).
    static let representativeFaults: [Fault] = [
        .corruptedCiphertext, .encryptedToOtherKey,            // hpke
        .issuerSignatureCorrupted, .untrustedRoot,             // issuer
        .msoExpired, .tamperedElementValue,                    // mso, digest
        .deviceSignatureOtherTranscript, .deviceCritUnknown,   // device, cose
        .duplicateDocType, .duplicateDocument,                 // policy (the request travels in the session), response
        .documentSignerRevoked, .statusRevoked,                // revocation
        .unknownMapKeys,                                       // must verify
    ]

    @Test("A representative MdocTesting fault per error area ends in the code it names through AnnexCVerifier",
          arguments: representativeFaults)
    func faults(_ fault: Fault) throws {
        let request = try AnnexCWebRequest.create(origin: AnnexCFixtures.origin, request: AnnexCFixtures.policy)
        let info = try AnnexCEncryptionInfo(base64URL: request.encryptionInfo)
        let target = MdocTesting.AnnexCRequest(recipientKey: request.session.privateKey, nonce: info.nonce, origin: AnnexCFixtures.origin)
        let pki = try TestPKI.shared(seed: 5, at: Self.time)
        var options = SimulationOptions(time: Self.time, faults: [fault])
        options.elements = [ElementID(AnnexCFixtures.isoNameSpace, "family_name"), ElementID(AnnexCFixtures.isoNameSpace, "age_over_21")]
        let response = try MdocSimulator(pki: pki).simulate(.annexC(target), options: options)
        // The request the simulated response comes with: none, except for faults that are about the request
        // (`duplicate-doctype`); the other faults aim at one check each.
        let session = AnnexCSession(privateKey: request.session.privateKey, encryptionInfo: request.encryptionInfo,
                                    origin: AnnexCFixtures.origin, request: response.request)
        let report = Self.verify(try #require(response.annexCResponse), session: session, pki: pki, revocation: response.revocation)
        #expect(expectation(report, response.expected) == nil, "\(fault.name)")
        #expect(response.expected == (fault.expectedCode(format: .annexC).map(ExpectedOutcome.rejected) ?? .verified))
    }

    @Test("Two documents in one Annex C response (mDL and photo ID) verify, each reported with its index")
    func twoDocuments() throws {
        var policy = AnnexCFixtures.policy
        policy.documents.append(.init(docType: MdocTesting.DocType.photoID, nameSpaces: [MdocTesting.NameSpace.iso23220: ["family_name_unicode": false]]))
        let request = try AnnexCWebRequest.create(origin: AnnexCFixtures.origin, request: policy)
        let wallet = try Wallet()
        let transcript = request.session.transcript
        var documents: [CBORValue] = []
        for (docType, elements) in [(AnnexCFixtures.mDL, [ElementID(AnnexCFixtures.isoNameSpace, "family_name")]),
                                    (MdocTesting.DocType.photoID, [ElementID(MdocTesting.NameSpace.iso23220, "family_name_unicode")])] {
            var options = SimulationOptions(time: Self.time)
            options.docType = docType
            options.elements = elements
            let single = try MdocSimulator(pki: wallet.pki).simulate(.deviceResponse(transcript), options: options)
            let document = try #require(try CBORDecoder.decode(single.deviceResponse)["documents"]?.array?.first)
            documents.append(document.asValue)
        }
        let deviceResponse = CBOREncoder.encode(.map([
            (.text("version"), .text("1.0")), (.text("documents"), .array(documents)), (.text("status"), .unsigned(0)),
        ]))
        let info = try AnnexCEncryptionInfo(base64URL: request.encryptionInfo)
        let sealed = try AnnexCResponseBuilder.seal(deviceResponse: deviceResponse, recipientKey: info.recipientPublicKey, transcript: transcript)
        let report = Self.verify(sealed, session: request.session, pki: wallet.pki)
        #expect(report.verified, "\(ReportSummary.text(report))")
        #expect(report.documents.map(\.docType) == [AnnexCFixtures.mDL, MdocTesting.DocType.photoID])
        #expect(report.checks.filter { $0.id == .deviceAuthentication && $0.status == .pass }.compactMap(\.document) == [0, 1])
    }
}
