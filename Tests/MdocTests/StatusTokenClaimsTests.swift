import CBOR
import CryptoCore
import Foundation
@testable import Mdoc
@testable import MdocModel
@testable import MdocTrust
import MdocTesting
import Testing

/// `exp`, `iat` and `ttl` are RFC 8392 NumericDates: an unsigned integer or a float of any precision, finite and not
/// negative. A float `exp` in the past expires the token (it used to mean "no expiry"); an `iat` after the
/// verification time is unknown; anything else is a malformed token.
@Suite("Status token claims")
struct StatusTokenClaimsTests {
    typealias Fixture = StatusFixture

    /// A token from `pki`'s status list signer with `claims` written over the built ones.
    static func token(_ pki: TestPKI, _ claims: [Int64: CBORValue]) throws -> [UInt8] {
        var builder = Fixture.statusList()
        builder.claimOverrides = claims
        return try Fixture.sign(builder, by: pki)
    }

    @Test("half, single and double floats and integers all read as NumericDates; iat is exposed; a fractional ttl rounds down")
    func floatsAndIntegers() throws {
        let pki = try Fixture.pki()
        // f9 3e00 = 1.5 (half); fa 4b800000 = 16777216 (single); fb … = 1780315200.5 (double).
        let double = [0xfb] + withUnsafeBytes(of: (1_780_315_200.5 as Double).bitPattern.bigEndian, Array.init)
        let token = try StatusToken(try Self.token(pki, [
            4: .encoded(double), 6: .encoded([0xfa, 0x4b, 0x80, 0x00, 0x00]), 65534: .encoded([0xf9, 0x3e, 0x00]),
        ]))
        #expect(token.expires == Date(timeIntervalSince1970: 1_780_315_200.5))
        #expect(token.issuedAt == Date(timeIntervalSince1970: 16_777_216))
        #expect(token.timeToLive == 1)
        let integers = try StatusToken(try Self.token(pki, [4: .unsigned(2_000_000_000), 6: .unsigned(1_000), 65534: .unsigned(43_200)]))
        #expect(integers.expires == Date(timeIntervalSince1970: 2_000_000_000))
        #expect(integers.issuedAt == Date(timeIntervalSince1970: 1_000))
        #expect(integers.timeToLive == 43_200)
        // A huge ttl is held, bounded, for the reader to cap: an integer as is, a float past UInt64 as UInt64.max.
        #expect(try StatusToken(try Self.token(pki, [65534: .unsigned(.max)])).timeToLive == .max)
        #expect(try StatusToken(try Self.token(pki, [65534: .float(1e300)])).timeToLive == .max)
        #expect(try StatusToken(try Self.token(pki, [65534: .float(0.25)])).timeToLive == 0)
    }

    static let wrongTypes: [(String, CBORValue)] = [
        ("negative integer", .int(-1)),
        ("negative float", .float(-1.5)),
        ("NaN", .float(.nan)),
        ("+infinity", .float(.infinity)),
        ("-infinity", .float(-.infinity)),
        ("text", .text("2026-06-01T12:00:00Z")),
        ("bytes", .bytes([0x01])),
        ("tagged epoch date", .tagged(1, .unsigned(1_780_315_200))),
        ("bool", .bool(true)),
        ("null", .null),
        ("array", .array([.unsigned(1)])),
        ("map", .map([(.unsigned(1), .unsigned(1))])),
    ]

    @Test("a claim of any other type, negative or not finite is malformed (input.malformed naming the claim)",
          arguments: [(Int64(4), "exp"), (6, "iat"), (65534, "ttl")])
    func wrongClaimTypes(_ claim: (key: Int64, name: String)) throws {
        let pki = try Fixture.pki()
        for (what, value) in Self.wrongTypes {
            let bytes = try Self.token(pki, [claim.key: value])
            #expect(throws: VerificationError(.inputMalformed,
                                              "status token: `\(claim.name)` (\(claim.key)) is not a NumericDate (an unsigned integer or a finite, non-negative float)"),
                    "\(claim.name) as \(what)") { try StatusToken(bytes) }
        }
    }

    @Test("an exp or iat after the year 9999 (as an integer or a float) is malformed, so no reader prints or compares an impossible date; a huge ttl is not",
          arguments: [(Int64(4), "exp"), (6, "iat")])
    func pastTheCalendar(_ claim: (key: Int64, name: String)) throws {
        let pki = try Fixture.pki()
        for value in [CBORValue.unsigned(253_402_300_800), .unsigned(.max), .float(1e300), .float(Double(UInt64.max))] {
            let bytes = try Self.token(pki, [claim.key: value])
            #expect(throws: VerificationError(.inputMalformed, "status token: `\(claim.name)` (\(claim.key)) is after the year 9999")) {
                try StatusToken(bytes)
            }
        }
        let last = try StatusToken(try Self.token(pki, [claim.key: .unsigned(253_402_300_799)]))
        #expect((claim.key == 4 ? last.expires : last.issuedAt) == Date(timeIntervalSince1970: 253_402_300_799))
    }

    @Test("typ is read from the protected header only")
    func protectedType() throws {
        let pki = try Fixture.pki()
        #expect(try StatusToken(try Fixture.sign(Fixture.statusList(), by: pki)).type == StatusToken.statusListType)
        var untyped = Fixture.statusList()
        untyped.type = nil
        #expect(try StatusToken(try Fixture.sign(untyped, by: pki)).type == nil)
        #expect(try StatusToken(try Fixture.sign(Fixture.identifierList(), by: pki)).type == StatusToken.identifierListType)

        // typ only in the unprotected header (not covered by the signature) counts as no typ: the check refuses it.
        let signer = try pki.issueStatusListSigner(at: Fixture.time)
        let claims = CBOREncoder.encode(.map([(.int(2), .text(Fixture.statusURI)),
                                              (.int(65533), .map([(.text("bits"), .unsigned(2)), (.text("lst"), .bytes(Zlib.deflate([0])))]))]))
        let message = try COSEBuilder.sign1(payload: claims, signedPayload: claims, key: signer.key,
                                            unprotected: [(.int(33), .bytes(signer.certificate.derEncoded)), (.int(16), .text(StatusToken.statusListType))])
        let unprotectedType = CBOREncoder.encode(.tagged(18, message))
        #expect(try StatusToken(unprotectedType).type == nil)
        let log = try Fixture.verify(try Fixture.response(pki), trust: pki.trustStore,
                                     source: try Fixture.source(pki, tokens: [Fixture.statusURI: unprotectedType]))
        #expect(log.errors.map(\.code) == [.revocationUnknown])
        #expect(Fixture.statusLines(log).first?.detail.contains("has no protected typ") == true)
    }

    @Test("a float exp 60 days past expires the list: revocation.unknown under hard, a warning under soft")
    func floatExpiry() throws {
        let pki = try Fixture.pki()
        let response = try Fixture.response(pki)
        let expired = try Self.token(pki, [4: .float(Fixture.time.timeIntervalSince1970 - 60 * Fixture.day + 0.5)])
        let source = try Fixture.source(pki, tokens: [Fixture.statusURI: expired])
        let hard = try Fixture.verify(response, trust: pki.trustStore, source: source)
        #expect(hard.errors.map(\.code) == [.revocationUnknown])
        #expect(Fixture.statusLines(hard).first?.detail.contains("token from test list expired 2026-04-02T12:00:00.5Z") == true,
                "\(Fixture.statusLines(hard))")
        let soft = try Fixture.verify(response, trust: pki.trustStore, source: source, policy: .soft)
        #expect(soft.errors.isEmpty && Fixture.statusLines(soft).map(\.status) == [.warn])
        // A float exp still ahead is a valid list.
        let current = try Self.token(pki, [4: .float(Fixture.time.timeIntervalSince1970 + 0.5)])
        let valid = try Fixture.verify(response, trust: pki.trustStore, source: try Fixture.source(pki, tokens: [Fixture.statusURI: current]))
        #expect(valid.errors.isEmpty && Fixture.statusLines(valid).map(\.status) == [.pass], "\(valid.errors)")
    }

    @Test("an iat after the verification time beyond the clock skew is unknown; within the skew it is accepted")
    func issuedInFuture() throws {
        let pki = try Fixture.pki()
        let response = try Fixture.response(pki)
        var future = Fixture.statusList()
        future.issuedAt = Fixture.time + 3600
        let source = try Fixture.source(pki, tokens: [Fixture.statusURI: try Fixture.sign(future, by: pki)])
        let hard = try Fixture.verify(response, trust: pki.trustStore, source: source)
        #expect(hard.errors.map(\.code) == [.revocationUnknown])
        let line = try #require(Fixture.statusLines(hard).first)
        #expect(line.detail.contains("was issued at 2026-06-01T13:00:00Z, after the verification time 2026-06-01T12:00:00Z"), "\(line.detail)")
        let soft = try Fixture.verify(response, trust: pki.trustStore, source: source, policy: .soft)
        #expect(soft.errors.isEmpty && Fixture.statusLines(soft).map(\.status) == [.warn])

        // 30 s ahead is within the default 60 s skew.
        var skewed = Fixture.statusList()
        skewed.issuedAt = Fixture.time + 30
        let withinSkew = try Fixture.verify(response, trust: pki.trustStore,
                                            source: try Fixture.source(pki, tokens: [Fixture.statusURI: try Fixture.sign(skewed, by: pki)]))
        #expect(withinSkew.errors.isEmpty, "\(withinSkew.errors)")
    }

    @Test("a malformed claim refuses the token where it is read: a status list file does not load")
    func malformedFile() throws {
        let pki = try Fixture.pki()
        let bytes = try Self.token(pki, [4: .float(.nan)])
        #expect(throws: VerificationError.self) {
            try StaticRevocationSource(tokens: [RevocationMaterial(bytes, origin: "file nan.cwt")])
        }
    }
}
