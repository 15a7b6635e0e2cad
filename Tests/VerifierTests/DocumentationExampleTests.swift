import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import MdocTrust
import Testing
import Verifier

/// The code of the DocC articles (Sources/Verifier/Verifier.docc), compiled and run, so an article cannot drift
/// from the API it teaches.
@Suite("Documentation examples")
struct DocumentationExampleTests {
    @Test("Getting started: Apple's sample verifies in test mode and gives family_name")
    func gettingStarted() throws {
        let sample = AppleSignedSample.self
        let configuration = VerifierConfiguration(trustStore: TrustStore(anchors: [try sample.issuerRoot()]),
                                                  testMode: true)
        let verifier = try AppleAppVerifier(configuration: configuration, keys: [try sample.merchantKey()])
        let session = AppleAppSession(nonce: sample.nonce, merchantID: sample.merchantID, teamID: sample.teamID)

        let report = verifier.verify(encryptedData: sample.envelope, session: session, at: sample.time)
        #expect(report.verified)
        #expect(report.assurance == .test)
        #expect(report.documents.first?.value("org.iso.18013.5.1", "family_name")?.summary == "Doe")
    }

    @Test("Getting started: outside test mode the sample's test key is refused with envelope.test_key")
    func productionRefusesTestKey() throws {
        let configuration = VerifierConfiguration(trustStore: try ProductionTrustBundle.trustStore())
        #expect(throws: VerificationError.self) {
            _ = try AppleAppVerifier(configuration: configuration, keys: [try AppleSignedSample.merchantKey()])
        }
    }

    @Test("Verifying in your own server: prepare, keep, consume once, verify through RequestFlow")
    func ownServer() throws {
        let time = Date()
        let pki = try TestPKI(seed: 7, at: time)
        let merchantKey = try PrivateKey.generate(.p256)
        let configuration = VerifierConfiguration(trustStore: pki.trustStore, revocation: .off)
        let environment = FlowEnvironment(configuration: configuration, recipientKeys: [merchantKey],
                                          merchantID: "merchant.com.example", teamID: "ABCDE12345")
        let flows = Dictionary(uniqueKeysWithValues: try FormatRegistry.flows(environment).map { ($0.format, $0) })

        let policy = RequestPolicy(documents: [
            .init(docType: "org.iso.18013.5.1.mDL", nameSpaces: ["org.iso.18013.5.1": ["age_over_21": false]]),
        ])
        let flow = try #require(flows[.appleApp])
        let prepared = try flow.prepare(policy: policy, origin: nil)
        var store = ["request-1": prepared.state]                         // the relying party's own store

        // The wallet answers the nonce the app received in publicFields.
        var options = SimulationOptions(time: time)
        options.elements = [ElementID(NameSpace.mDL, "age_over_21")]
        let request = try AppleAppRequest(prepared: prepared, merchantKey: merchantKey.publicKey,
                                          merchantID: "merchant.com.example", teamID: "ABCDE12345")
        let response = try MdocSimulator(pki: pki).simulate(.appleApp(request), options: options)
        let posted = Data(response.bytes).base64EncodedString()

        let taken = store.removeValue(forKey: "request-1")              // consume first, whatever the outcome
        let kept = try #require(taken)
        let report = flow.verify(response: posted, state: kept, policy: policy, at: time)
        #expect(report.verified, "\(ReportSummary.text(report))")
        #expect(report.documents.first?.value("org.iso.18013.5.1", "age_over_21") == .bool(true))
        #expect(store["request-1"] == nil, "a second attempt finds nothing to verify against")
    }

    @Test("Trust and revocation: a VICAL's IACAs become scoped anchors with the list as their source")
    func vicalAnchors() throws {
        let time = Date()
        let pki = try TestPKI(seed: 3, at: time)
        let operatorPKI = try VICALBuilder(seed: 4, at: time)
        let vicalBytes = try operatorPKI.build(entries: [.init(pki.iaca, docTypes: ["org.iso.18013.5.1.mDL"])], issueID: 5,
                                               date: time, nextUpdate: time.addingTimeInterval(86_400))
        let baseTrust = TrustStore(anchors: [])

        let verified = try VICALVerification(vicalBytes, roots: [operatorPKI.root], at: time, previousIssueID: 4)
        var anchors = baseTrust.anchors
        var provenance = baseTrust.provenance
        for entry in verified.vical.entries {
            anchors.append(entry.certificate)
            provenance[entry.certificate.sha256Fingerprint] = verified.provenance(of: entry)
        }
        let trust = TrustStore(anchors: anchors, allowNonSelfSignedAnchors: true, provenance: provenance)

        #expect(trust.anchors.count == 1)
        #expect(trust.provenance[pki.iaca.sha256Fingerprint]?.docTypes == ["org.iso.18013.5.1.mDL"])
        #expect(throws: VerificationError.self) {        // an older list than the one imported is a rollback
            _ = try VICALVerification(vicalBytes, roots: [operatorPKI.root], at: time, previousIssueID: 6)
        }
    }
}
