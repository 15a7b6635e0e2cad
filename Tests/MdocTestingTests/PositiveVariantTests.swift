import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import Testing
import Verifier

/// Responses without faults verify, in every variant a real issuer or wallet may produce.
@Suite("MdocTesting: positive variants")
struct PositiveVariantTests {
    struct Variant: CustomTestStringConvertible, Sendable {
        let curve: Curve
        let digest: DigestAlgorithm
        let x5chain: SimulationOptions.X5ChainForm
        let format: ResponseFormat
        var testDescription: String { "\(curve.rawValue) \(digest.rawValue) x5chain \(x5chain.rawValue) \(format.rawValue)" }
    }

    static let variants: [Variant] = [
        Variant(curve: .p256, digest: .sha256, x5chain: .bstr, format: .appleApp),
        Variant(curve: .p256, digest: .sha256, x5chain: .array, format: .appleApp),
        Variant(curve: .p384, digest: .sha384, x5chain: .bstr, format: .appleApp),
        Variant(curve: .p384, digest: .sha384, x5chain: .array, format: .deviceResponse),
        Variant(curve: .p521, digest: .sha512, x5chain: .bstr, format: .appleApp),
        Variant(curve: .p521, digest: .sha512, x5chain: .array, format: .deviceResponse),
        Variant(curve: .ed25519, digest: .sha256, x5chain: .bstr, format: .appleApp),
        Variant(curve: .ed25519, digest: .sha512, x5chain: .array, format: .deviceResponse),
        Variant(curve: .brainpoolP256r1, digest: .sha256, x5chain: .bstr, format: .appleApp),
        Variant(curve: .brainpoolP320r1, digest: .sha384, x5chain: .array, format: .annexC),
        Variant(curve: .brainpoolP384r1, digest: .sha384, x5chain: .bstr, format: .annexC),
        Variant(curve: .brainpoolP512r1, digest: .sha512, x5chain: .array, format: .deviceResponse),
    ]

    @Test("curves, digest algorithms and x5chain forms verify, with the expected algorithm", arguments: variants)
    func variant(_ variant: Variant) throws {
        let result = try SimulatedCase(format: variant.format, curve: variant.curve, time: Fixtures.time) {
            $0.digestAlgorithm = variant.digest
            $0.x5chain = variant.x5chain
        }.run()
        #expect(result.failure == nil, "\(result.failure ?? "")")
        let algorithm = try #require(COSEAlgorithm.signing(with: variant.curve))
        #expect(result.report.checks.contains { $0.id == .issuerAlgorithm && $0.detail == algorithm.name })
        #expect(result.report.checks.contains { $0.id == .msoDigestAlgorithm && $0.detail == variant.digest.rawValue })
        let chain = try #require(result.report.checks.first { $0.id == .issuerX5chain })
        #expect(chain.detail.hasPrefix(variant.x5chain == .bstr ? "1 certificate" : "2 certificate"))
    }

    @Test("Ed25519, P-384, P-521 and brainpool device keys sign DeviceAuthentication")
    func deviceCurves() throws {
        for curve in [Curve.ed25519, .p384, .p521, .brainpoolP256r1, .brainpoolP384r1, .brainpoolP512r1] {
            let result = try SimulatedCase(time: Fixtures.time) { $0.deviceCurve = curve }.run()
            #expect(result.failure == nil, "\(curve): \(result.failure ?? "")")
        }
    }

    @Test("non-shortest CBOR and unknown map keys together, in both formats, still verify")
    func looseEncodings() throws {
        for format in [ResponseFormat.appleApp, .deviceResponse] {
            let result = try SimulatedCase(faults: [.nonShortestCBOR, .unknownMapKeys], format: format, time: Fixtures.time).run()
            #expect(result.expected == .verified)
            #expect(result.failure == nil, "\(result.failure ?? "")")
        }
    }

    @Test("selected elements are the only ones disclosed; the MSO keeps digests for all of them plus decoys")
    func selectiveDisclosure() throws {
        let selection = [ElementID(NameSpace.mDL, "given_name"), ElementID(NameSpace.mDL, "portrait"),
                         ElementID(NameSpace.aamva, "DHS_compliance")]
        let result = try SimulatedCase(time: Fixtures.time) { $0.elements = selection }.run()
        #expect(result.failure == nil, "\(result.failure ?? "")")
        let document = try #require(result.report.documents.first)
        let disclosed = document.elements.flatMap { ns in ns.value.keys.map { ElementID(ns.key, $0) } }
        #expect(Set(disclosed) == Set(selection))
        #expect(document.value(NameSpace.mDL, "portrait").map { if case .bytes(let b) = $0 { b.starts(with: [0xFF, 0xD8, 0xFF]) } else { false } } == true)

        let mso = try Fixtures.mso(ofDeviceResponse: result.response.deviceResponse)
        let content = try #require(SampleContent.elements(for: DocType.mDL, at: Fixtures.time))
        for nameSpace in [NameSpace.mDL, NameSpace.aamva] {
            let digests = try #require(mso["valueDigests"]?[nameSpace]?.map)
            let elements = content.filter { $0.nameSpace == nameSpace }.count
            #expect(digests.count == elements + 3)
        }
    }

    @Test("IssuerSignedItems carry distinct salts of 32 bytes; dates are tag 1004 and tdates tag 0 without fractions")
    func itemShapes() throws {
        let (request, _) = try Fixtures.appleRequest()
        let response = try MdocSimulator(seed: 1, at: Fixtures.time).simulate(.appleApp(request), options: Fixtures.options())
        let items = try #require(CBORDecoder.decode(response.deviceResponse)["documents"]?.array?.first?["issuerSigned"]?["nameSpaces"]?[NameSpace.mDL]?.array)
        var salts: Set<[UInt8]> = []
        for item in items {
            let inner = try item.decodeEmbedded().item
            let salt = try #require(inner["random"]?.bytes)
            #expect(salt.count == 32)
            salts.insert(Array(salt))
            if inner["elementIdentifier"]?.text == "birth_date" {
                #expect(inner["elementValue"]?.tag?.tag == 1004)
                #expect(inner["elementValue"]?.tag?.item.text == "1990-04-12")
            }
        }
        #expect(salts.count == items.count)
        let validity = try #require(Fixtures.mso(ofDeviceResponse: response.deviceResponse)["validityInfo"])
        for key in ["signed", "validFrom", "validUntil", "expectedUpdate"] {
            let tagged = try #require(validity[key]?.tag)
            #expect(tagged.tag == 0)
            #expect(tagged.item.text.map { $0.count == 20 && $0.hasSuffix("Z") } == true, "\(key)")
        }
    }

    @Test("device-signed elements verify when keyAuthorizations allow their namespace or the element itself")
    func authorizedDeviceSignedElements() throws {
        let element = DataElement("org.example.device", "note", .text("hello"))
        let byNameSpace = try SimulatedCase(time: Fixtures.time) {
            $0.deviceSignedElements = [element]
            $0.keyAuthorizations = .init(nameSpaces: ["org.example.device"])
        }.run()
        #expect(byNameSpace.failure == nil, "\(byNameSpace.failure ?? "")")
        #expect(byNameSpace.report.documents.first?.elements["org.example.device"]?["note"]?.deviceSigned == true)
        let byElement = try SimulatedCase(time: Fixtures.time) {
            $0.deviceSignedElements = [element]
            $0.keyAuthorizations = .init(dataElements: ["org.example.device": ["note"]])
        }.run()
        #expect(byElement.failure == nil, "\(byElement.failure ?? "")")
        // The same element without authorization is the fault the table tests.
        let unauthorized = try SimulatedCase(time: Fixtures.time) { $0.deviceSignedElements = [element] }.run()
        #expect(unauthorized.report.errors.map(\.code) == [.deviceKeyUnauthorized])
    }

    @Test("deviceMac with the reader key verifies as a bare DeviceResponse; Apple refuses deviceMac")
    func deviceMac() throws {
        let bare = try SimulatedCase(format: .deviceResponse, time: Fixtures.time) { $0.deviceAuthentication = .mac }.run()
        #expect(bare.response.readerKey != nil)
        #expect(bare.failure == nil, "\(bare.failure ?? "")")
        #expect(bare.report.checks.contains { $0.id == .deviceAuthentication && $0.detail.hasPrefix("deviceMac") && $0.status == .pass })
        let keyMismatch = try SimulatedCase(faults: [.deviceKeyMismatch], format: .deviceResponse, time: Fixtures.time) {
            $0.deviceAuthentication = .mac
        }.run()
        #expect(keyMismatch.expected == .rejected(.deviceMacInvalid))
        #expect(keyMismatch.failure == nil, "\(keyMismatch.failure ?? "")")
        let apple = try SimulatedCase(time: Fixtures.time) { $0.deviceAuthentication = .mac }.run()
        #expect(apple.expected == .rejected(.deviceAuthMissing))
        #expect(apple.failure == nil, "\(apple.failure ?? "")")
    }

    @Test("the photo ID docType verifies with its ISO 23220 namespaces")
    func photoID() throws {
        let result = try SimulatedCase(time: Fixtures.time) { $0.docType = DocType.photoID }.run()
        #expect(result.failure == nil, "\(result.failure ?? "")")
        let document = try #require(result.report.documents.first)
        #expect(document.docType == DocType.photoID)
        #expect(document.value(NameSpace.iso23220, "family_name_unicode") == .text("Garcia"))
        #expect(document.value(NameSpace.photoID, "travel_document_number") != nil)
    }

    @Test("custom content replaces the sample")
    func customContent() throws {
        let content = [DataElement("org.example.membership", "member_id", .text("M-0042")),
                       DataElement("org.example.membership", "tier", .unsigned(3))]
        let result = try SimulatedCase(time: Fixtures.time) {
            $0.docType = "org.example.membership.1"
            $0.content = content
        }.run()
        #expect(result.failure == nil, "\(result.failure ?? "")")
        #expect(result.report.documents.first?.value("org.example.membership", "member_id") == .text("M-0042"))
    }
}
