import CBOR
import CryptoCore
import Foundation
@testable import Mdoc
@testable import MdocModel
@testable import MdocTrust
import MdocTesting
import Testing

/// Each `ResponseLimits` ceiling: a structure at the ceiling parses, one past it is refused with the right code
/// and a message naming the ceiling, before any element is parsed.
@Suite("Response ceilings (ResponseLimits)")
struct ResponseLimitsTests {
    static func decode(_ value: CBORValue) throws -> CBORItem { try CBORDecoder.decode(CBOREncoder.encode(value)) }

    static func refusal(_ body: () throws(VerificationError) -> Void) -> VerificationError? {
        do { try body() } catch { return error }
        return nil
    }

    static func response(documents: Int, documentErrors: Int = 0) throws -> CBORItem {
        var entries: [(CBORValue, CBORValue)] = [(.text("version"), .text("1.0")),
                                                  (.text("documents"), .array(Array(repeating: .map([]), count: documents)))]
        if documentErrors > 0 {
            entries.append((.text("documentErrors"), .array((0 ..< documentErrors).map { .map([(.text("doc\($0)"), .unsigned(0))]) })))
        }
        entries.append((.text("status"), .unsigned(0)))
        return try decode(.map(entries))
    }

    @Test("documents: 16 parse, 17 are response.malformed naming ResponseLimits.maxDocuments")
    func documents() throws {
        #expect(try DeviceResponse(Self.response(documents: ResponseLimits.maxDocuments)).documents.count == 16)
        let over = try Self.response(documents: ResponseLimits.maxDocuments + 1)
        let error = try #require(Self.refusal { () throws(VerificationError) in _ = try DeviceResponse(over) })
        #expect(error.code == .responseMalformed)
        #expect(error.message.contains("holds 17; the ceiling is 16 (ResponseLimits.maxDocuments)"), "\(error.message)")
        let errors = try Self.response(documents: 0, documentErrors: ResponseLimits.maxDocuments + 1)
        #expect(Self.refusal { () throws(VerificationError) in _ = try DeviceResponse(errors) }?.message.contains("maxDocuments") == true)
    }

    /// An IssuerSignedItemBytes the parser accepts.
    static func issuerSignedItem(_ id: UInt64) -> CBORValue {
        .embedded(.map([(.text("digestID"), .unsigned(id)), (.text("random"), .bytes([UInt8](repeating: 7, count: 16))),
                        (.text("elementIdentifier"), .text("e\(id)")), (.text("elementValue"), .bool(true))]))
    }

    static func issuerNameSpaces(_ counts: [Int]) throws -> CBORItem {
        var next: UInt64 = 0
        return try decode(.map(counts.enumerated().map { index, count in
            (.text("ns\(index)"), .array((0 ..< count).map { _ in next += 1; return issuerSignedItem(next) }))
        }))
    }

    @Test("issuerSigned namespaces: 64 parse, 65 are refused naming ResponseLimits.maxNameSpaces")
    func issuerNameSpaceCount() throws {
        #expect(try MdocDocument.issuerNameSpaces(Self.issuerNameSpaces(Array(repeating: 1, count: 64))).count == 64)
        let over = try Self.issuerNameSpaces(Array(repeating: 1, count: 65))
        let error = try #require(Self.refusal { () throws(VerificationError) in _ = try MdocDocument.issuerNameSpaces(over) })
        #expect(error.code == .responseMalformed && error.message.contains("the ceiling is 64 (ResponseLimits.maxNameSpaces)"))
    }

    @Test("issuerSigned elements: 2048 parse, 2049 are refused naming ResponseLimits.maxElementsPerDocument")
    func issuerElementCount() throws {
        #expect(try MdocDocument.issuerNameSpaces(Self.issuerNameSpaces([1024, 1024])).map(\.items.count) == [1024, 1024])
        let over = try Self.issuerNameSpaces([1024, 1025])
        let error = try #require(Self.refusal { () throws(VerificationError) in _ = try MdocDocument.issuerNameSpaces(over) })
        #expect(error.code == .responseMalformed
                && error.message.contains("holds 2049; the ceiling is 2048 (ResponseLimits.maxElementsPerDocument)"))
    }

    @Test("deviceSigned namespaces and elements are capped the same way")
    func deviceSigned() throws {
        func deviceNameSpaces(_ counts: [Int]) throws -> CBORItem {
            try Self.decode(.embedded(.map(counts.enumerated().map { index, count in
                (.text("ns\(index)"), .map((0 ..< count).map { (.text("e\($0)"), .bool(true)) }))
            })))
        }
        #expect(try MdocDocument.deviceNameSpaces(deviceNameSpaces([2048])).1.count == 1)
        let tooMany = try deviceNameSpaces(Array(repeating: 1, count: 65))
        #expect(Self.refusal { () throws(VerificationError) in _ = try MdocDocument.deviceNameSpaces(tooMany) }?
            .message.contains("ResponseLimits.maxNameSpaces") == true)
        let tooLarge = try deviceNameSpaces([2049])
        #expect(Self.refusal { () throws(VerificationError) in _ = try MdocDocument.deviceNameSpaces(tooLarge) }?
            .message.contains("ResponseLimits.maxElementsPerDocument") == true)
    }

    static func valueDigests(_ counts: [Int]) throws -> CBORItem {
        try decode(.map(counts.enumerated().map { index, count in
            (.text("ns\(index)"), .map((0 ..< count).map { (.unsigned(UInt64($0)), .bytes([UInt8](repeating: 1, count: 32))) }))
        }))
    }

    @Test("MSO valueDigests: 16384 digests parse, 16385 are mso.malformed naming ResponseLimits.maxDigests")
    func digests() throws {
        #expect(try MobileSecurityObject.valueDigests(Self.valueDigests([8192, 8192]), algorithm: .sha256).nameSpaces.count == 2)
        let over = try Self.valueDigests([8192, 8193])
        let error = try #require(Self.refusal { () throws(VerificationError) in
            _ = try MobileSecurityObject.valueDigests(over, algorithm: .sha256)
        })
        #expect(error.code == .msoMalformed && error.message.contains("the ceiling is 16384 (ResponseLimits.maxDigests)"))
        let namespaces = try Self.valueDigests(Array(repeating: 1, count: 65))
        #expect(Self.refusal { () throws(VerificationError) in _ = try MobileSecurityObject.valueDigests(namespaces, algorithm: .sha256) }?
            .message.contains("ResponseLimits.maxNameSpaces") == true)
    }

    @Test("x5chain: 8 certificates parse, 9 are refused naming ResponseLimits.maxCertificatesPerChain")
    func certificatesPerChain() throws {
        let pki = try TestPKI(seed: 3)
        func message(certificates: Int) throws -> COSEMessage {
            let chain = Array(repeating: CBORValue.bytes(pki.documentSigner.derEncoded), count: certificates)
            return try COSEMessage(Self.decode(.array([.bytes(CBOREncoder.encode(.map([(.int(1), .int(-7))]))),
                                                       .map([(.int(33), .array(chain))]), .bytes([1]), .bytes([2])])), tag: 18)
        }
        #expect(try message(certificates: 8).x5chainCertificates()?.count == 8)
        let over = try message(certificates: 9)
        let error = try #require(throws: COSEParseError.self) { try over.x5chainCertificates() }
        #expect(error.description.contains("ResponseLimits.maxCertificatesPerChain"))
    }
}
