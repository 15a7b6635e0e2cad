import CBOR
import Mdoc
import MdocModel
import Testing
import TestSupport

/// Mdoc CBOR decoded with `CBORDecoder.Options.mdoc` reads every known docType, namespace and element identifier as the
/// vocabulary's stored String through plain `.text`: the model (documents, IssuerSignedItems, the MSO decoded from the
/// issuerAuth payload) has no rule of its own for it. Two separate decodes then share each such String's storage.
@Suite("Mdoc decoding vocabulary")
struct MdocDecodingVocabularyTests {
    /// The address of a String's UTF-8 storage (nil for a small String stored inline).
    static func storage(_ text: String) -> UnsafeRawPointer? {
        text.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
    }

    /// The texts of 16 bytes or more that the model read from the Annex D response: the document's docType,
    /// namespaces and element identifiers, and the docType of its MSO.
    static func modelTexts(_ options: CBORDecoder.Options) throws -> (document: [String], mso: String) {
        let response = try DeviceResponse(try CBORDecoder.decode(AnnexDVector.deviceResponse, options: options))
        let document = try MdocDocument(try #require(response.documents.first))
        let mso = try MobileSecurityObject(payload: try #require(document.issuerAuth.payload), limits: document.issuerAuth.decodingLimits)
        let texts = [document.docType] + document.issuerNameSpaces.map(\.name)
            + document.issuerNameSpaces.flatMap { $0.items.map(\.elementIdentifier) }
        return (texts.filter { $0.utf8.count >= 16 }, mso.docType)
    }

    @Test("docType, namespaces and long element identifiers are the stored Strings")
    func sharedStorage() throws {
        let first = try Self.modelTexts(.mdoc())
        let second = try Self.modelTexts(.mdoc())
        // docType, the namespace, driving_privileges.
        #expect(first.document.count >= 3)
        #expect(first.document == second.document)
        for (one, other) in zip(first.document + [first.mso], second.document + [second.mso]) {
            #expect(Self.storage(one) != nil)
            #expect(Self.storage(one) == Self.storage(other), "\(one)")
        }
    }

    @Test("decoded without the mdoc options, a response's texts are Strings of their own; its MSO is still read with them")
    func plainDecoding() throws {
        let first = try Self.modelTexts(CBORDecoder.Options())
        let second = try Self.modelTexts(CBORDecoder.Options())
        #expect(first.document == second.document)
        for (one, other) in zip(first.document, second.document) {
            #expect(Self.storage(one) != Self.storage(other), "\(one)")
        }
        #expect(Self.storage(first.mso) == Self.storage(second.mso))
    }

    @Test("the limits a response is decoded with hold inside it: the issuerAuth keeps them, and its MSO is decoded within them")
    func limitsReachTheMSO() throws {
        let tight = CBORLimits(maxTotalItems: 40_000)
        let response = try DeviceResponse(try CBORDecoder.decode(AnnexDVector.deviceResponse, options: .mdoc(limits: tight)))
        let document = try MdocDocument(try #require(response.documents.first))
        #expect(document.issuerAuth.decodingLimits == tight)
        let payload = try #require(document.issuerAuth.payload)
        #expect(throws: Never.self) { try MobileSecurityObject(payload: payload, limits: document.issuerAuth.decodingLimits) }
        #expect(throws: VerificationError.self) { try MobileSecurityObject(payload: payload, limits: CBORLimits(maxTotalItems: 10)) }
    }
}
