import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import Testing
import Verifier

/// Every OpenID4VP rejection path ends in its own code: the posted shape, the wallet's error, a downgrade, and each
/// JWE header rule, checked on a kit answer whose one part is changed.
@Suite("OpenID4VP rejections")
struct OpenID4VPRejectionTests {
    static let time = Date(timeIntervalSince1970: 1_780_315_200)  // 2026-06-01T12:00:00Z

    struct Case {
        let request: OpenID4VPRequest
        let posted: String
        let pki: TestPKI
    }

    static func answer(_ mode: OpenID4VPSession.ResponseMode = .dcAPIJWT) throws -> Case {
        let request = try OpenID4VPRequest(seed: 9, responseMode: mode)
        let pki = try TestPKI(seed: 9, at: time)
        var options = SimulationOptions(time: time)
        options.statusList = nil
        let response = try MdocSimulator(pki: pki).simulate(.openID4VP(request), options: options)
        return Case(request: request, posted: try #require(response.openID4VPResponse), pki: pki)
    }

    static func verify(_ posted: String, _ item: Case, mode: OpenID4VPSession.ResponseMode? = nil) -> VerificationReport {
        var session = item.request.session
        if let mode {
            session = OpenID4VPSession(origin: session.origin, nonce: session.nonce, responseMode: mode, encryptionKey: session.encryptionKey,
                                       jwk: session.jwk, queryIDs: session.queryIDs, request: nil)
        }
        return OpenID4VPVerifier(configuration: VerifierConfiguration(trustStore: item.pki.trustStore, revocation: .off))
            .verify(response: posted, session: session, at: time)
    }

    /// The compact JWE of a kit answer with its protected header rewritten by `edit` (the AAD no longer matches, but
    /// each header rule is checked before decryption).
    static func editedHeader(_ item: Case, _ edit: (inout [String: Any]) -> Void) throws -> String {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(item.posted.utf8)) as? [String: Any])
        let jwe = try #require((object["data"] as? [String: Any])?["response"] as? String)
        var segments = jwe.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let headerBytes = try #require(Base64URL.decodeStrict(segments[0]))
        var header = try #require(try JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any])
        edit(&header)
        segments[0] = Base64URL.encode(try JSONSerialization.data(withJSONObject: header))
        return segments.joined(separator: ".")
    }

    @Test("the kit's answer verifies in both modes (the baseline the cases below change)")
    func baseline() throws {
        for mode in OpenID4VPSession.ResponseMode.allCases {
            let item = try Self.answer(mode)
            let report = Self.verify(item.posted, item)
            #expect(report.verified, "\(mode): \(report.errors)")
        }
    }

    @Test("the posted shape: wallet error, plain answer to dc_api.jwt, encrypted answer to dc_api, a protocol not offered, not JSON")
    func responseShape() throws {
        let item = try Self.answer()
        let walletError = Self.verify(#"{"protocol":"openid4vp-v1-unsigned","data":{"error":"access_denied","error_description":"user declined"}}"#, item)
        #expect(walletError.errors.map(\.code) == [.openID4VPWalletError])
        #expect(walletError.errors.first?.message.contains("access_denied") == true)

        let plain = try Self.answer(.dcAPI)
        #expect(Self.verify(plain.posted, item).errors.map(\.code) == [.openID4VPEncryptionRequired])
        #expect(Self.verify(item.posted, item, mode: .dcAPI).errors.map(\.code) == [.inputMalformed])
        let otherProtocol = item.posted.replacingOccurrences(of: "openid4vp-v1-unsigned", with: "org-iso-mdoc")
        #expect(Self.verify(otherProtocol, item).errors.map(\.code) == [.inputMalformed])
        #expect(Self.verify("{not json", item).errors.map(\.code) == [.inputMalformed])
    }

    @Test("JWE structure: not 5 segments, an encrypted key, bad base64url, epk off the curve")
    func jweStructure() throws {
        let item = try Self.answer()
        #expect(Self.verify("a.b.c", item).errors.map(\.code) == [.jweMalformed])
        let parts = try Self.editedHeader(item) { _ in }.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        #expect(Self.verify([parts[0], "AAAA", parts[2], parts[3], parts[4]].joined(separator: "."), item).errors.map(\.code) == [.jweMalformed])
        #expect(Self.verify([parts[0], "", "!!", parts[3], parts[4]].joined(separator: "."), item).errors.map(\.code) == [.jweMalformed])
        let offCurve = try Self.editedHeader(item) { header in
            header["epk"] = ["kty": "EC", "crv": "P-256", "x": Base64URL.encode([UInt8](repeating: 1, count: 32)),
                             "y": Base64URL.encode([UInt8](repeating: 2, count: 32))]
        }
        #expect(Self.verify(offCurve, item).errors.map(\.code) == [.jweEphemeralKeyInvalid])
    }

    @Test("JWE header rules: alg other than ECDH-ES, crit, zip other than DEF, an enc not offered")
    func jweHeaderRules() throws {
        let item = try Self.answer()
        let cases: [(String, (inout [String: Any]) -> Void, ErrorCode)] = [
            ("alg", { $0["alg"] = "ECDH-ES+A128KW" }, .jweAlgorithmUnsupported),
            ("crit", { $0["crit"] = ["exp"] }, .jweAlgorithmUnsupported),
            ("zip", { $0["zip"] = "GZ" }, .jweCompressionUnsupported),
            ("enc", { $0["enc"] = "A192GCM" }, .jweEncryptionNotAllowed),
        ]
        for (name, edit, code) in cases {
            #expect(Self.verify(try Self.editedHeader(item, edit), item).errors.map(\.code) == [code], "\(name)")
        }
    }

    @Test("vp_token shapes: a query id not asked for, two presentations, padded base64url")
    func vpTokenShapes() throws {
        let item = try Self.answer(.dcAPI)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(item.posted.utf8)) as? [String: Any])
        let token = try #require(((object["data"] as? [String: Any])?["vp_token"] as? [String: Any])?[item.request.queryID] as? [String])
        func posted(_ vpToken: [String: Any]) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: ["protocol": "openid4vp-v1-unsigned", "data": ["vp_token": vpToken]]),
                   as: UTF8.self)
        }
        #expect(Self.verify(try posted(["other": token]), item).errors.map(\.code) == [.vpTokenMalformed])
        #expect(Self.verify(try posted([item.request.queryID: token + token]), item).errors.map(\.code) == [.vpTokenMalformed])
        #expect(Self.verify(try posted([item.request.queryID: [token[0] + "=="]]), item).errors.map(\.code) == [.vpTokenMalformed])
        #expect(Self.verify(try posted([item.request.queryID: 7]), item).errors.map(\.code) == [.vpTokenMalformed])
    }
}
