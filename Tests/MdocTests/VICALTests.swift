import CryptoCore
import Foundation
import CBOR
@testable import Mdoc
@testable import MdocModel
@testable import MdocTrust
import Testing
import TestSupport

/// Real VICALs (TestVectors/trust): AAMVA production and Austroads pre-production.
@Suite("VICAL verification (ISO/IEC 18013-5 Annex C)")
struct VICALTests {
    static func bytes(_ name: String) -> [UInt8] { Array(FileManager.default.contents(atPath: VectorFiles.url("TestVectors/trust/" + name).path) ?? Data()) }
    static func root(_ name: String) throws -> Certificate { try Certificate(pemEncoded: VectorFiles.text("TestVectors/trust/" + name)) }
    static let aamva = bytes("aamva-vical.cbor")
    static let austroads = bytes("austroads-preproduction-vical.cbor")
    static let aamvaTime = VectorFiles.date("2025-08-05T21:00:00Z")

    @Test("the files are the ones recorded in the README")
    func provenance() {
        #expect(Hex.encode(Digest.hash(.sha256, Self.aamva)) == "adf9f26432cbae5fd938147314c39a0fcdabf48419c4a8d229524e270161ec5e")
        #expect(Hex.encode(Digest.hash(.sha256, Self.austroads)) == "2af162156413d2a9b0179d6be605373184db4d68543819e337243c6e42c87f9f")
    }

    @Test("AAMVA verifies at 2025-08-05T21:00:00Z against the pinned AAMVA root, with its entries deduplicated by SPKI")
    func aamva() throws {
        let verified = try VICALVerification(Self.aamva, roots: [try Self.root("aamva-dts-root-from-vical-x5chain.pem")], at: Self.aamvaTime)
        #expect(verified.vical.provider == "AAMVA")
        #expect(verified.vical.issueID == 89782)
        #expect(verified.vical.date.description == "2025-08-05T20:47:21Z")
        #expect(verified.vical.nextUpdate?.description == "2025-08-06T20:47:21Z")
        #expect(verified.freshness == .fresh)
        #expect(verified.signer.subject.description.contains("AAMVA Prod Vical-Signer-01"))
        #expect(verified.root.subject.description.contains("AAMVA DTS Root CA"))
        #expect(verified.vical.listedCount == 13)
        let spkis = verified.vical.entries.map(\.spkiSHA256)
        #expect(Set(spkis).count == spkis.count)
        #expect(verified.vical.entries.count <= 13)
        #expect(verified.vical.entries.allSatisfy { $0.docTypes.contains("org.iso.18013.5.1.mDL") })
    }

    @Test("after nextUpdate the AAMVA list is stale: reported under the default profile, refused under strict")
    func stale() throws {
        let later = VectorFiles.date("2025-12-01T00:00:00Z")
        let root = try Self.root("aamva-dts-root-from-vical-x5chain.pem")
        let verified = try VICALVerification(Self.aamva, roots: [root], at: later)
        #expect(verified.freshness == .stale(since: try #require(RFC3339.Timestamp(parsing: "2025-08-06T20:47:21Z"))))
        #expect(throws: VerificationError.self) { try VICALVerification(Self.aamva, roots: [root], at: later, profile: .strict) }
        do {
            _ = try VICALVerification(Self.aamva, roots: [root], at: later, profile: .strict)
        } catch {
            #expect(error.code == .vicalStale)
        }
    }

    @Test("a flipped payload byte is vical.signature_invalid; another pinned root is vical.signer_untrusted; a lower issue ID is a rollback")
    func failures() throws {
        let root = try Self.root("aamva-dts-root-from-vical-x5chain.pem")
        var flipped = Self.aamva
        flipped[flipped.count - 100] ^= 0x01  // inside the payload (the signature is the last 64 bytes)
        #expect(Self.code { try VICALVerification(flipped, roots: [root], at: Self.aamvaTime) } == .vicalSignatureInvalid)
        let other = try Self.root("austroads-preproduction-dts-root.pem")
        #expect(Self.code { try VICALVerification(Self.aamva, roots: [other], at: Self.aamvaTime) } == .vicalSignerUntrusted)
        #expect(Self.code { try VICALVerification(Self.aamva, roots: [], at: Self.aamvaTime) } == .vicalSignerUntrusted)
        #expect(Self.code { try VICALVerification(Self.aamva, roots: [root], at: Self.aamvaTime, previousIssueID: 90_000) } == .vicalRollback)
        #expect(Self.code { try VICALVerification([0xa0], roots: [root], at: Self.aamvaTime) } == .vicalMalformed)
    }

    @Test("Austroads verifies against its root; its brainpool and P-521 entries load")
    func austroads() throws {
        let verified = try VICALVerification(Self.austroads, roots: [try Self.root("austroads-preproduction-dts-root.pem")],
                                             at: VectorFiles.date("2025-01-01T00:00:00Z"))
        #expect(verified.vical.issueID == 27)
        #expect(verified.freshness == .undated)
        #expect(verified.vical.listedCount == 40)
        let curves = Set(verified.vical.entries.compactMap { try? $0.certificate.publicKey().curve })
        #expect(curves.isSuperset(of: [.p256, .p384, .p521, .brainpoolP384r1, .brainpoolP512r1]), "\(curves)")
    }

    @Test("entries listing the same key twice become one, with both docTypes; unknown keys are ignored")
    func deduplication() throws {
        let certificate = try Self.root("austroads-preproduction-dts-root.pem")
        func info(_ docType: String) -> CBORValue {
            .map([(.text("certificate"), .bytes(certificate.derEncoded)), (.text("serialNumber"), .unsigned(1)),
                  (.text("ski"), .bytes([1])), (.text("docType"), .array([.text(docType)])), (.text("Extensions"), .map([]))])
        }
        let payload = CBOREncoder.encode(.map([
            (.text("version"), .text("1.0")), (.text("vicalProvider"), .text("Test")),
            (.text("date"), .tagged(0, .text("2025-01-01T00:00:00Z"))),
            (.text("certificateInfos"), .array([info("org.iso.18013.5.1.mDL"), info("org.iso.23220.photoid.1")])),
        ]))
        let vical = try VICAL(payload: payload[...])
        #expect(vical.listedCount == 2)
        #expect(vical.entries.count == 1)
        #expect(vical.entries.first?.docTypes == ["org.iso.18013.5.1.mDL", "org.iso.23220.photoid.1"])
    }

    static func code(_ body: () throws -> VICALVerification) -> ErrorCode? {
        do {
            _ = try body()
            return nil
        } catch {
            return (error as? VerificationError)?.code
        }
    }
}
