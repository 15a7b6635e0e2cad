import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import Testing
import TestSupport
import Verifier

/// Bare ISO/IEC 18013-5 DeviceResponses through `DeviceResponseVerifier`: the Annex D example (deviceMac),
/// its byte flips, and responses with several documents, `documentErrors` and per-document `errors`.
@Suite("DeviceResponseVerifier: Annex D and multi-document responses")
struct DeviceResponseAnnexDTests {
    static func verifier(anchors: [Certificate]? = nil) throws -> DeviceResponseVerifier {
        DeviceResponseVerifier(configuration: VerifierConfiguration(trustStore: TrustStore(anchors: try anchors ?? [AnnexDVector.iaca()])))
    }

    static func transcript() throws -> SessionTranscript { try SessionTranscript(encoded: AnnexDVector.sessionTranscriptBytes) }

    static func verify(_ response: [UInt8], readerKey: PrivateKey? = nil, request: RequestPolicy? = nil) throws -> VerificationReport {
        try verifier().verify(deviceResponse: response, transcript: transcript(), readerKey: try readerKey ?? AnnexDVector.readerKey(),
                              request: request, at: AnnexDVector.validTime)
    }

    static func failed(_ report: VerificationReport) -> [CheckID] {
        report.checks.filter { $0.status == .fail }.map(\.id)
    }

    @Test("Annex D verifies at 2021-01-01 with the utopia IACA and the reader key; format device-response")
    func verifies() throws {
        let report = try Self.verify(AnnexDVector.deviceResponse)
        #expect(report.verified, "\(report.errors)")
        #expect(report.format == .deviceResponse && report.assurance == .production)
        let document = try #require(report.documents.first)
        #expect(document.value("org.iso.18013.5.1", "family_name") == .text("Doe"))
        #expect(report.checks.contains { $0.id == .deviceAuthentication && $0.status == .pass && $0.detail.contains("deviceMac") })
        let json = report.json.serialized()
        #expect(json.contains(#""format":"device-response""#) && json.contains(#""verified":true"#))
    }

    @Test("The transcript from the NFC builder verifies the same response")
    func nfcBuilderTranscript() throws {
        let folder = AnnexDVector.folder + "eudi-ios-D5/"
        let select = VectorFiles.hex(folder + "d52_nfcHandoverSelect.hex")
        let engagement = Array(select.suffix(88))  // the DeviceEngagement record payload ends the Handover Select
        let keys = try #require(try JSONSerialization.jsonObject(with: Data(VectorFiles.text(AnnexDVector.folder + "keys.json").utf8))
            as? [String: Any])
        let reader = try #require(keys["eReaderKey"] as? [String: String])
        let x = hex(try #require(reader["x"]))
        let y = hex(try #require(reader["y"]))
        let transcript = try SessionTranscript.nfcEngagement(
            deviceEngagement: engagement, eReaderKey: [0xa4, 0x01, 0x02, 0x20, 0x01, 0x21, 0x58, 0x20] + x + [0x22, 0x58, 0x20] + y,
            handoverSelect: select, handoverRequest: VectorFiles.hex(folder + "d52_nfcHandoverRequest.hex"))
        let report = try Self.verifier().verify(deviceResponse: AnnexDVector.deviceResponse, transcript: transcript,
                                                readerKey: try AnnexDVector.readerKey(), at: AnnexDVector.validTime)
        #expect(report.verified, "\(report.errors)")
    }

    @Test("Each expected.json byte flip fails exactly its one check with one error code")
    func byteFlips() throws {
        let flips: [(offset: Int, from: UInt8, to: UInt8, check: CheckID, code: ErrorCode)] = [
            (200, 0x44, 0x46, .digestValues, .digestMismatch),
            (3398, 0x59, 0x5a, .issuerSignature, .issuerSignatureInvalid),
            (3522, 0xe9, 0xe8, .deviceAuthentication, .deviceMacInvalid),
        ]
        // The same table as expected.json states it.
        let expected = try #require(try JSONSerialization.jsonObject(
            with: Data(VectorFiles.text(AnnexDVector.folder + "expected.json").utf8)) as? [String: Any])
        let variants = try #require(expected["byte_flip_variants"] as? [[String: Any]])
        #expect(variants.compactMap { ($0["mutation"] as? [String: Any])?["offset"] as? Int } == flips.map(\.offset))
        for flip in flips {
            var bytes = AnnexDVector.deviceResponse
            #expect(bytes[flip.offset] == flip.from)
            bytes[flip.offset] = flip.to
            let report = try Self.verify(bytes)
            #expect(Self.failed(report) == [flip.check], "offset \(flip.offset)")
            #expect(report.errors.map(\.code) == [flip.code], "offset \(flip.offset)")
            #expect(!report.verified && report.documents.isEmpty)
        }
    }

    @Test("deviceMac without the reader key: device.auth_missing, never a silent pass")
    func macWithoutReaderKey() throws {
        let report = try Self.verifier().verify(deviceResponse: AnnexDVector.deviceResponse, transcript: Self.transcript(),
                                                at: AnnexDVector.validTime)
        #expect(report.errors.map(\.code) == [.deviceAuthMissing])
        #expect(!report.verified)
    }

    // MARK: - Several documents

    /// Annex D's Document, re-encoded from its received entries (signed parts untouched), optionally with
    /// `errors` added; `flipFamilyName` applies the offset-200 flip inside this document only.
    static func annexDDocument(errors: [(String, String, Int64)] = [], flipFamilyName: Bool = false) throws -> CBORValue {
        var bytes = AnnexDVector.deviceResponse
        if flipFamilyName { bytes[200] = 0x46 }
        let response = try CBORDecoder.decode(bytes)
        let document = try #require(response["documents"]?.array?.first)
        let entries = try #require(document.map)
        var pairs: [(CBORValue, CBORValue)] = entries.map { (.encoded(Array($0.key.raw)), .encoded(Array($0.value.raw))) }
        if !errors.isEmpty {
            let nameSpaces = Dictionary(grouping: errors, by: \.0).sorted { $0.key < $1.key }
            pairs.append((.text("errors"), .map(nameSpaces.map { ns in
                (.text(ns.key), .map(ns.value.map { (.text($0.1), .int($0.2)) }))
            })))
        }
        return .map(pairs)
    }

    static func response(_ documents: [CBORValue], documentErrors: [(String, Int64)] = []) -> [UInt8] {
        var pairs: [(CBORValue, CBORValue)] = [(.text("version"), .text("1.0")), (.text("documents"), .array(documents))]
        if !documentErrors.isEmpty {
            pairs.append((.text("documentErrors"), .array(documentErrors.map { .map([(.text($0.0), .int($0.1))]) })))
        }
        pairs.append((.text("status"), .unsigned(0)))
        return CBOREncoder.encode(.map(pairs))
    }

    @Test("Two documents, documentErrors and per-document errors: both verified, every error reported as a warning")
    func twoDocuments() throws {
        let bytes = Self.response(
            [try Self.annexDDocument(), try Self.annexDDocument(errors: [("org.iso.18013.5.1", "age_over_21", 0)])],
            documentErrors: [("org.iso.23220.photoid.1", 0)])
        let report = try Self.verify(bytes)
        #expect(report.verified, "\(report.errors)")
        #expect(report.documents.count == 2)
        let passedDevice = report.checks.filter { $0.id == .deviceAuthentication && $0.status == .pass }.compactMap(\.document)
        #expect(passedDevice == [0, 1])
        let documentErrors = try #require(report.checks.first { $0.id == .responseDocumentErrors })
        #expect(documentErrors.status == .warn && documentErrors.detail.contains("org.iso.23220.photoid.1 (code 0)"))
        let perDocument = report.checks.filter { $0.id == .documentErrors && $0.status != .pass }
        #expect(perDocument.count == 1)
        #expect(perDocument.first?.document == 1 && perDocument.first?.status == .warn)
        #expect(perDocument.first?.detail.contains("org.iso.18013.5.1/age_over_21 (code 0)") == true)
        let json = report.json.serialized()
        #expect(json.contains(#""id":"document.errors""#) && json.contains(#""document":1"#))
    }

    @Test("Two documents, the second tampered: the failure names document 1, document 0 passes, nothing is released")
    func secondDocumentTampered() throws {
        let bytes = Self.response([try Self.annexDDocument(), try Self.annexDDocument(flipFamilyName: true)])
        let report = try Self.verify(bytes)
        #expect(!report.verified && report.documents.isEmpty)
        let failures = report.checks.filter { $0.status == .fail }
        #expect(failures.map(\.id) == [CheckID.digestValues])
        #expect(failures.map(\.document) == [1])
        #expect(report.errors.map(\.message).allSatisfy { $0.hasPrefix("document 1: ") })
        #expect(report.checks.contains { $0.id == .digestValues && $0.document == 0 && $0.status == .pass })
    }

    @Test("Request policy across two documents: a docType that was not requested fails with policy.doctype_not_requested")
    func policyOnTwoDocuments() throws {
        let bytes = Self.response([try Self.annexDDocument(), try Self.annexDDocument(errors: [("org.iso.18013.5.1", "age_over_21", 0)])])
        let asked = RequestPolicy(documents: [.init(docType: "org.iso.23220.photoid.1", nameSpaces: ["org.iso.23220.1": ["family_name": false]])])
        let report = try Self.verify(bytes, request: asked)
        #expect(report.errors.map(\.code) == [.policyDocTypeNotRequested, .policyDocTypeNotRequested])
    }

    @Test("The same Document twice is response.malformed; two mDLs for a request naming one is policy.doctype_repeated")
    func repeatedDocuments() throws {
        let same = try Self.verify(Self.response([try Self.annexDDocument(), try Self.annexDDocument()]))
        #expect(same.errors.map(\.code) == [.responseMalformed])
        #expect(same.errors.first?.message == "document 1 repeats document 0")
        let asked = RequestPolicy(documents: [.init(docType: "org.iso.18013.5.1.mDL", nameSpaces: ["org.iso.18013.5.1": ["family_name": false]])])
        let two = try Self.verify(Self.response([try Self.annexDDocument(), try Self.annexDDocument(errors: [("org.iso.18013.5.1", "x", 0)])]),
                                  request: asked)
        #expect(Set(two.errors.map(\.code)).contains(.policyDocTypeRepeated))
        #expect(two.documents.isEmpty)
    }

    @Test("documentErrors naming a docType the response also returns is response.malformed")
    func documentErrorsConflict() throws {
        let report = try Self.verify(Self.response([try Self.annexDDocument()], documentErrors: [("org.iso.18013.5.1.mDL", 0)]))
        #expect(report.errors.map(\.code) == [.responseMalformed])
        #expect(report.checks.first { $0.id == .responseDocumentErrors }?.status == .fail)
        #expect(report.documents.isEmpty)
    }
}
