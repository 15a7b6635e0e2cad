import CBOR
import CryptoCore
import Foundation
@testable import Mdoc
@testable import MdocModel
@testable import MdocTrust
import MdocTesting
import Testing

/// The status check, and so any fetch (a fetching source notes only the URIs the check looks up), runs only for a
/// document whose issuer-side checks all passed.
@Suite("Status check gating")
struct StatusGatingTests {
    typealias Fixture = StatusFixture

    @Test("an expired MSO, a wrong docType, an expired or untrusted document signer: the status line is skipped naming the failure, and the source is never asked",
          arguments: [(Fault.msoExpired, "mso.validity"), (.msoDocTypeMismatch, "mso.doctype"), (.msoNotYetValid, "mso.validity"),
                      (.documentSignerExpired, "issuer.certificate_chain"), (.documentSignerWrongEKU, "issuer.certificate_profile"),
                      (.unsupportedDigestAlgorithm, "mso.digest_algorithm"), (.documentSignerRevoked, "revocation.certificate"),
                      (.issuerSignatureCorrupted, "issuer.signature"), (.untrustedRoot, "issuer.certificate_chain")])
    func skippedWithoutLookup(_ fault: Fault, _ failed: String) throws {
        let pki = try Fixture.pki()
        let response = try Fixture.response(pki, identifiers: true, faults: [fault])
        // The kit's CRL (listing the signer under document-signer-revoked) and a list that says revoked.
        var list = Fixture.statusList()
        list.statuses[Fixture.index] = 1
        let tokens = [Fixture.statusURI: try Fixture.sign(list, by: pki), Fixture.identifierURI: try Fixture.sign(Fixture.identifierList(), by: pki)]
        let recording = RecordingRevocationSource(try StaticRevocationSource(
            crls: [RevocationMaterial(response.revocation.crl, origin: "kit CRL")],
            fetched: tokens.mapValues { RevocationMaterial($0, origin: "test list") }))
        for policy in [RevocationPolicy.hard, .soft] {
            let log = try Fixture.verify(response, trust: pki.trustStore, source: recording, policy: policy)
            #expect(!log.errors.isEmpty)
            #expect(!log.errors.contains { $0.code == .statusRevoked }, "\(fault.name): \(log.errors)")
            let lines = Fixture.statusLines(log)
            #expect(lines.count == 1 && lines.first?.status == .skip, "\(fault.name): \(lines)")
            if lines.first?.detail.hasPrefix("needs ") == false {
                #expect(lines.first?.detail.contains("not looked up: \(failed)") == true, "\(fault.name): \(lines)")
            }
        }
        #expect(recording.statusLookups.isEmpty, "\(fault.name) looked up \(recording.statusLookups)")
    }

    @Test("the same document without the fault is looked up (both lists) and its revoked status reported")
    func lookedUpWhenClean() throws {
        let pki = try Fixture.pki()
        let response = try Fixture.response(pki, identifiers: true)
        var list = Fixture.statusList()
        list.statuses[Fixture.index] = 1
        let recording = RecordingRevocationSource(try Fixture.source(pki, tokens: [
            Fixture.statusURI: try Fixture.sign(list, by: pki), Fixture.identifierURI: try Fixture.sign(Fixture.identifierList(), by: pki),
        ]))
        let log = try Fixture.verify(response, trust: pki.trustStore, source: recording)
        #expect(log.errors.map(\.code) == [.statusRevoked])
        #expect(recording.statusLookups == [Fixture.statusURI, Fixture.identifierURI])
    }

    @Test("a certificate revocation that only lacks a CRL (hard: revocation.unknown) still looks the status up, so a fetcher gets the CRL and the list in one round")
    func unknownCRLStillLooksUp() throws {
        let pki = try Fixture.pki()
        let response = try Fixture.response(pki)
        let recording = RecordingRevocationSource(try StaticRevocationSource(
            fetched: [Fixture.statusURI: RevocationMaterial(try Fixture.sign(Fixture.statusList(), by: pki), origin: "test list")]))
        let log = try Fixture.verify(response, trust: pki.trustStore, source: recording)
        #expect(log.errors.map(\.code) == [.revocationUnknown])
        #expect(log.checks.first { $0.id == .revocationCertificate }?.status == .fail)
        #expect(Fixture.statusLines(log).map(\.status) == [.pass])
        #expect(recording.statusLookups == [Fixture.statusURI])
    }

    @Test("another document's failure does not skip this document's status")
    func perDocument() throws {
        let pki = try Fixture.pki()
        let good = try Fixture.response(pki)
        let bad = try Fixture.response(pki, faults: [.msoExpired])
        // Two documents in one DeviceResponse: the expired one first.
        let goodItem = try CBORDecoder.decode(good.deviceResponse)
        let badItem = try CBORDecoder.decode(bad.deviceResponse)
        let documents = [try #require(badItem["documents"]?.array?.first?.raw), try #require(goodItem["documents"]?.array?.first?.raw)]
        let combined = CBOREncoder.encode(.map([(.text("version"), .text("1.0")), (.text("documents"), .array(documents.map { .encoded(Array($0)) })),
                                                (.text("status"), .unsigned(0))]))
        var list = Fixture.statusList()
        list.statuses[Fixture.index] = 1
        let recording = RecordingRevocationSource(try Fixture.source(pki, tokens: [Fixture.statusURI: try Fixture.sign(list, by: pki)]))
        let verifier = MdocVerifier(trustStore: pki.trustStore, options: MdocVerificationOptions(revocation: .hard, revocationSource: recording))
        let log = verifier.verify(deviceResponse: try CBORDecoder.decode(combined), transcript: Fixture.transcript, time: Fixture.time, request: nil).log
        let lines = Fixture.statusLines(log)
        #expect(lines.map(\.document) == [0, 1])
        #expect(lines.map(\.status) == [.skip, .fail])
        #expect(recording.statusLookups == [Fixture.statusURI])
    }
}
