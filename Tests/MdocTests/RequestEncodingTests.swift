import CBOR
import Mdoc
import MdocModel
import Testing
import TestSupport

/// ItemsRequest and DeviceRequest encoding and parsing against ISO/IEC 18013-5 Annex D (D.4.1.1).
@Suite("DeviceRequest and ItemsRequest")
struct RequestEncodingTests {
    /// The D.4.1.1 ItemsRequest, in the order the vector lists its elements.
    static let annexDItems = ItemsRequest(docType: "org.iso.18013.5.1.mDL", nameSpaces: [
        .init("org.iso.18013.5.1", elements: [
            .init("family_name", intentToRetain: true),
            .init("document_number", intentToRetain: true),
            .init("driving_privileges", intentToRetain: true),
            .init("issue_date", intentToRetain: true),
            .init("expiry_date", intentToRetain: true),
            .init("portrait", intentToRetain: false),
        ]),
    ])

    @Test("Annex D ItemsRequest and DeviceRequest (version 1.0, per-document readerAuth) encode byte for byte")
    func encodeAnnexD() {
        #expect(Self.annexDItems.encoded == AnnexDVector.itemsRequest)
        let request = DeviceRequest(version: .v1_0, docRequests: [.init(itemsRequest: Self.annexDItems, readerAuth: AnnexDVector.readerAuth)])
        #expect(request.encoded == AnnexDVector.deviceRequest)
    }

    @Test("Annex D DeviceRequest parses back: exact ItemsRequestBytes and ReaderAuth bytes, the policy it implies")
    func parseAnnexD() throws {
        let request = try DeviceRequest(decoding: AnnexDVector.deviceRequest)
        #expect(request.version == "1.0")
        #expect(request.readerAuthAll.isEmpty && request.deviceRequestInfoBytes == nil)
        let doc = try #require(request.docRequests.first)
        #expect(doc.itemsRequest == Self.annexDItems)
        #expect(doc.itemsRequestBytes == [0xd8, 0x18, 0x58, 0x93] + AnnexDVector.itemsRequest)
        #expect(doc.readerAuth == AnnexDVector.readerAuth)
        #expect(request.encoded == AnnexDVector.deviceRequest)
        let policy = try #require(request.policy.request(for: "org.iso.18013.5.1.mDL"))
        #expect(policy.nameSpaces["org.iso.18013.5.1"]?["portrait"] == false)
        #expect(policy.nameSpaces["org.iso.18013.5.1"]?.count == 6)
    }

    @Test("From a request policy: namespaces and elements sorted, intent to retain kept")
    func fromPolicy() throws {
        let policy = RequestPolicy.DocumentRequest(docType: "org.iso.18013.5.1.mDL", nameSpaces: [
            "org.iso.18013.5.1.aamva": ["DHS_compliance": false],
            "org.iso.18013.5.1": ["portrait": false, "age_over_21": true, "family_name": false],
        ])
        let items = ItemsRequest(policy)
        #expect(items.nameSpaces.map(\.name) == ["org.iso.18013.5.1", "org.iso.18013.5.1.aamva"])
        #expect(items.nameSpaces[0].elements.map(\.identifier) == ["age_over_21", "family_name", "portrait"])
        #expect(items.policy == policy)
        // {"docType": "org.iso.18013.5.1.mDL", "nameSpaces": {"org.iso.18013.5.1": {"age_over_21": true, …}, …}}
        let expectedStart: [UInt8] = [0xa2, 0x67] + Array("docType".utf8) + [0x75] + Array("org.iso.18013.5.1.mDL".utf8)
            + [0x6a] + Array("nameSpaces".utf8) + [0xa2, 0x71] + Array("org.iso.18013.5.1".utf8) + [0xa3, 0x6b]
            + Array("age_over_21".utf8) + [0xf5]
        #expect(Array(items.encoded.prefix(expectedStart.count)) == expectedStart)
        #expect(items.taggedBytes == [0xd8, 0x18] + CBORHeads.bstr(items.encoded.count) + items.encoded)
    }

    @Test("Malformed DeviceRequests are input.malformed")
    func malformed() {
        let cases: [[UInt8]] = [
            [0xff],
            CBOREncoder.encode(.array([])),
            CBOREncoder.encode(.map([(.text("version"), .text("2.0")), (.text("docRequests"), .array([]))])),
            CBOREncoder.encode(.map([(.text("version"), .text("1.0")), (.text("docRequests"), .array([]))])),
            CBOREncoder.encode(.map([(.text("version"), .text("1.0")), (.text("docRequests"), .array([.map([(.text("itemsRequest"), .bytes([0xa0]))])]))])),
            CBOREncoder.encode(.map([(.text("version"), .text("1.0")), (.text("docRequests"), .array([.map([
                (.text("itemsRequest"), .embedded(.map([(.text("docType"), .text("x")), (.text("nameSpaces"), .map([(.text("ns"), .map([(.text("e"), .unsigned(1))]))]))]))),
            ])]))])),
        ]
        for bytes in cases {
            do {
                _ = try DeviceRequest(decoding: bytes)
                Issue.record("accepted a malformed DeviceRequest \(bytes)")
            } catch {
                #expect(error.code == .inputMalformed)
            }
        }
    }
}
