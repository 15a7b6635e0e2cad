import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import MdocTrust
import Testing
import TestSupport
import Verifier

/// Mock data from a development device (Apple's Wallet developer profile): no issuer signature, a device signature that
/// verifies. Refused with `issuer.mock_data` outside test mode, a warning in it; only for apple-app and annex-c
/// (docs/formats.md §1.6).
@Suite("Mock data from a development device (issuer.mock_data)")
struct MockDataTests {
    static let time = Date(timeIntervalSince1970: 1_780_000_000)
    static let appleFormats: [ResponseFormat] = [.appleApp, .annexC]

    /// Builds the kit's response with `faults` and verifies it through the format's request flow, as the server does.
    static func verify(_ faults: [Fault], format: ResponseFormat, testMode: Bool) throws -> VerificationReport {
        let pki = try TestPKI(seed: 3, curve: .p256, at: time)
        let configuration = VerifierConfiguration(trustStore: pki.trustStore, testMode: testMode)
        let request = try SimulatedRequest(format, seed: 3, pki: pki, configuration: configuration)
        let response = try MdocSimulator(pki: pki).simulate(request.target, options: SimulationOptions(time: time, faults: faults))
        return try request.verify(response, policy: response.request, at: time)
    }

    static func line(_ report: VerificationReport, _ id: CheckID) -> CheckResult? {
        let lines = report.checks.filter { $0.id == id }
        #expect(lines.count <= 1, "\(id) appears \(lines.count) times")
        return lines.first
    }

    @Test("production: mock data is refused with issuer.mock_data, the primary and only error; issuer.signature is a skip",
          arguments: appleFormats)
    func production(format: ResponseFormat) throws {
        let report = try Self.verify([.mockData], format: format, testMode: false)
        #expect(!report.verified)
        #expect(report.documents.isEmpty)
        #expect(report.assurance == .production)
        #expect(report.errors.map(\.code) == [.issuerMockData])
        #expect(report.primaryError?.code == .issuerMockData)
        let message = try #require(report.primaryError?.message)
        #expect(message.hasPrefix("document 0: mock data from a development device"))
        #expect(message.contains("cannot be trusted") && message.contains("test mode"))
        let mock = try #require(Self.line(report, .issuerMockData))
        #expect(mock.status == .fail && mock.code == .issuerMockData && mock.document == 0)
        #expect(Self.line(report, .issuerSignature)?.status == .skip)
        #expect(Self.line(report, .deviceAuthentication)?.status == .pass)
        // The line heads the document's checks, right after its structure.
        let ids = report.checks.filter { $0.document == 0 }.map(\.id)
        #expect(Array(ids.prefix(2)) == [.documentStructure, .issuerMockData])
    }

    @Test("test mode: the mock line warns and the document is released under assurance test", arguments: appleFormats)
    func testMode(format: ResponseFormat) throws {
        let report = try Self.verify([.mockData], format: format, testMode: true)
        #expect(report.verified, "\(report.errors)")
        #expect(report.assurance == .test)
        #expect(report.errors.isEmpty)
        #expect(report.documents.first?.docType == DocType.mDL)
        let mock = try #require(Self.line(report, .issuerMockData))
        #expect(mock.status == .warn && mock.code == nil)
        #expect(mock.detail.contains("accepted in test mode only"))
        #expect(Self.line(report, .issuerSignature)?.status == .skip)
    }

    @Test("the mock failure comes before the issuer failures beside it, so it is the primary error; test mode still rejects those")
    func primaryBeforeChain() throws {
        let production = try Self.verify([.mockData, .untrustedRoot], format: .appleApp, testMode: false)
        #expect(Set(production.errors.map(\.code)) == [.issuerMockData, .issuerChainUntrusted])
        #expect(production.errors.first?.code == .issuerMockData)
        #expect(production.primaryError?.code == .issuerMockData)
        let test = try Self.verify([.mockData, .untrustedRoot], format: .appleApp, testMode: true)
        #expect(!test.verified)
        #expect(test.documents.isEmpty)
        #expect(Set(test.errors.map(\.code)) == [.issuerChainUntrusted])
        #expect(Self.line(test, .issuerMockData)?.status == .warn)
    }

    @Test("a real issuer signature that fails stays issuer.signature_invalid; the mock line passes", arguments: appleFormats)
    func realSignatureThatFails(format: ResponseFormat) throws {
        for testMode in [false, true] {
            let report = try Self.verify([.issuerSignatureCorrupted], format: format, testMode: testMode)
            #expect(report.errors.map(\.code) == [.issuerSignatureInvalid])
            #expect(Self.line(report, .issuerMockData)?.status == .pass)
            #expect(Self.line(report, .issuerSignature)?.status == .fail)
        }
    }

    @Test("a zeroed issuer signature with a device signature that does not verify is not mock data, in either mode",
          arguments: appleFormats)
    func zeroedWithBadDeviceSignature(format: ResponseFormat) throws {
        for testMode in [false, true] {
            let report = try Self.verify([.mockData, .deviceSignatureOtherTranscript], format: format, testMode: testMode)
            #expect(!report.verified)
            #expect(Set(report.errors.map(\.code)) == [.issuerSignatureInvalid, .deviceSignatureInvalid])
            #expect(report.primaryError?.code == .issuerSignatureInvalid)
            #expect(Self.line(report, .issuerMockData)?.status == .skip)
            #expect(Self.line(report, .issuerSignature)?.status == .fail)
        }
    }

    @Test("other formats have no such rule: a zeroed issuer signature is issuer.signature_invalid, and no mock line",
          arguments: [ResponseFormat.deviceResponse, .openID4VP])
    func otherFormats(format: ResponseFormat) throws {
        for testMode in [false, true] {
            let report = try Self.verify([.mockData], format: format, testMode: testMode)
            #expect(report.errors.map(\.code) == [.issuerSignatureInvalid])
            #expect(Self.line(report, .issuerMockData) == nil)
        }
    }

    @Test("every apple-app and annex-c report has the line once per document; a signed document passes it", arguments: appleFormats)
    func lineInEveryReport(format: ResponseFormat) throws {
        let report = try Self.verify([], format: format, testMode: false)
        #expect(report.verified, "\(report.errors)")
        let mock = try #require(Self.line(report, .issuerMockData))
        #expect(mock.status == .pass && mock.document == 0)
    }

    @Test("the byte forms: an empty or all-zero signature is no signature; one non-zero byte makes it a signature")
    func byteForms() {
        #expect(MockDataRule.lacksIssuerSignature([]))
        #expect(MockDataRule.lacksIssuerSignature(ArraySlice(repeating: 0, count: 64)))
        #expect(MockDataRule.lacksIssuerSignature(ArraySlice(repeating: 0, count: 96)))
        var almost = [UInt8](repeating: 0, count: 64)
        almost[63] = 1
        #expect(!MockDataRule.lacksIssuerSignature(almost[...]))
        almost = [UInt8](repeating: 0, count: 64)
        almost[0] = 1
        #expect(!MockDataRule.lacksIssuerSignature(almost[...]))
    }

    @Test("Apple's test key (Simulator, sample) is unchanged: refused before decryption in production, verified in test mode")
    func testKeyUnchanged() throws {
        let sample = AppleSignedSample.self
        #expect(sample.envelope == AppleSampleVector.envelope && sample.nonce == AppleSampleVector.nonce, "the kit embeds the vector")
        let session = AppleAppSession(nonce: sample.nonce, merchantID: sample.merchantID, teamID: sample.teamID)
        let trust = TrustStore(anchors: [try sample.issuerRoot()])
        let production = try AppleAppVerifier(configuration: VerifierConfiguration(trustStore: trust), keys: [try PrivateKey.generate(.p256)])
        let refused = production.verify(encryptedData: sample.envelope, session: session, at: sample.time)
        #expect(refused.errors.map(\.code) == [.envelopeTestKey])
        #expect(Self.line(refused, .issuerMockData) == nil)
        let test = try AppleAppVerifier(configuration: VerifierConfiguration(trustStore: trust, testMode: true), keys: [try sample.merchantKey()])
        let verified = test.verify(encryptedData: sample.envelope, session: session, at: sample.time)
        #expect(verified.verified, "\(verified.errors)")
        #expect(Self.line(verified, .issuerMockData)?.status == .pass)
    }

    @Test("CheckLog.insert and replace keep one rejection per failed line, in line order")
    func logEdits() {
        var log = CheckLog()
        log.pass(.documentStructure, "a", document: 0)
        log.fail(.issuerSignature, .issuerSignatureInvalid, "b", document: 0)
        log.insert(CheckResult(id: .issuerMockData, status: .fail, detail: "c", document: 0, code: .issuerMockData), at: 1)
        #expect(log.errors.map(\.code) == [.issuerMockData, .issuerSignatureInvalid])
        #expect(log.errors.first?.message == "document 0: c")
        log.replace(at: 2, with: CheckResult(id: .issuerSignature, status: .skip, detail: "d", document: 0))
        #expect(log.errors.map(\.code) == [.issuerMockData])
        log.replace(at: 1, with: CheckResult(id: .issuerMockData, status: .warn, detail: "e", document: 0))
        #expect(log.errors.isEmpty && !log.hasFailures)
        #expect(log.checks.map(\.status) == [.pass, .warn, .skip])
    }

    @Test("CheckLog.replaceLines swaps one check's run of lines for one document, keeping one rejection per failed line in line order")
    func logReplaceLines() {
        var log = CheckLog()
        log.fail(.issuerSignature, .issuerSignatureInvalid, "a", document: 0)
        log.fail(.revocationStatus, .revocationUnknown, "b", document: 0)
        log.pass(.revocationStatus, "c", document: 0)
        log.fail(.revocationStatus, .revocationUnknown, "d", document: 1)
        log.fail(.deviceAuthentication, .deviceSignatureInvalid, "e", document: 0)

        log.replaceLines(of: .revocationStatus, document: 0, with: [
            CheckResult(id: .revocationStatus, status: .fail, detail: "f", document: 0, code: .statusRevoked),
        ])
        #expect(log.checks.map(\.detail) == ["a", "f", "d", "e"])
        #expect(log.errors.map(\.message) == ["document 0: a", "document 0: f", "document 1: d", "document 0: e"])
        #expect(log.errors.map(\.code) == [.issuerSignatureInvalid, .statusRevoked, .revocationUnknown, .deviceSignatureInvalid])

        // One failed line becomes two passing ones: the rejection goes, the lines after stay in place.
        log.replaceLines(of: .revocationStatus, document: 1, with: [
            CheckResult(id: .revocationStatus, status: .pass, detail: "g", document: 1),
            CheckResult(id: .revocationStatus, status: .pass, detail: "h", document: 1),
        ])
        #expect(log.checks.map(\.detail) == ["a", "f", "g", "h", "e"])
        #expect(log.errors.map(\.message) == ["document 0: a", "document 0: f", "document 0: e"])

        // A check that wrote no line for the document changes nothing.
        let before = log.checks
        log.replaceLines(of: .revocationCertificate, document: 0, with: [CheckResult(id: .revocationCertificate, status: .pass, detail: "i", document: 0)])
        #expect(log.checks == before && log.errors.count == 3)
    }
}
