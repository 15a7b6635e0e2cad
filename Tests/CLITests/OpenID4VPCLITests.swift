import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import Testing
import TestSupport
import Verifier

/// `mdocverify request openid4vp` and `verify openid4vp`, end to end with the MdocTesting wallet answering from the
/// request file alone, in both response modes, and a signed request checked the way a wallet would.
@Suite("mdocverify request openid4vp / verify openid4vp")
struct OpenID4VPCLITests {
    static let time = "2026-06-01T12:00:00Z"
    static let origin = "https://shop.example"
    static let requestJSON = #"{"documents":[{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"family_name":false,"age_over_21":true}}}]}"#

    static func createRequest(_ extra: [String] = [], json: String = requestJSON) throws -> String {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("mdocverify-openid4vp-\(UUID().uuidString)").path
        let request = try MdocVerifyCLITests.temporaryFile(Array(json.utf8))
        let run = try MdocVerifyCLITests.run(["request", "openid4vp", "--origin", origin, "--request", request, "--out", out] + extra)
        #expect(run.status == 0, "\(run.stderr)")
        return out
    }

    static func jsonSegment(_ segment: String) throws -> [String: Any] {
        let bytes = try #require(Base64URL.decodeStrict(segment))
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    static func dcRequest(_ directory: String) throws -> (protocolIdentifier: String, data: String) {
        let text = try String(contentsOfFile: directory + "/dc-request.json", encoding: .utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let data = String(decoding: try JSONSerialization.data(withJSONObject: try #require(object["data"])), as: UTF8.self)
        return (try #require(object["protocol"] as? String), data)
    }

    /// The wallet's answer to the request in `directory` (from dc-request.json only) and the trust anchor file.
    static func walletResponse(_ directory: String, faults: [Fault] = []) throws -> (response: String, trust: String) {
        let (protocolIdentifier, data) = try dcRequest(directory)
        let request = try OpenID4VPRequest(protocolIdentifier: protocolIdentifier, data: data, origin: origin)
        let at = VectorFiles.date(time)
        let pki = try TestPKI(seed: 23, at: at)
        var options = SimulationOptions(time: at, faults: faults)
        options.elements = [ElementID(NameSpace.mDL, "family_name"), ElementID(NameSpace.mDL, "age_over_21")]
        let response = try MdocSimulator(pki: pki).simulate(.openID4VP(request), options: options)
        return (try MdocVerifyCLITests.temporaryFile(Array(try #require(response.openID4VPResponse).utf8)),
                try MdocVerifyCLITests.temporaryFile(Array(pki.iacaPEM.utf8)))
    }

    static func verify(_ directory: String, response: String, trust: String) throws -> MdocVerifyCLI.Run {
        try verify(directory, response: response, trust: [trust])
    }

    static func verify(_ directory: String, response: String, trust: [String]) throws -> MdocVerifyCLI.Run {
        try MdocVerifyCLITests.run(["verify", "openid4vp", "--response", response, "--session", directory + "/session.json",
                                    "--request", directory + "/request.json", "--at", time, "--json"] + trust.flatMap { ["--trust", $0] })
    }

    /// An mDL and a photo ID, one element each.
    static let twoDocumentRequestJSON = #"""
        {"documents":[{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"family_name":false}}},\#
        {"docType":"org.iso.23220.photoid.1","nameSpaces":{"org.iso.23220.1":{"family_name_unicode":false}}}]}
        """#

    /// The wallet's answer to the two-document request in `directory`, read from dc-request.json: for each credential
    /// query in order, a DeviceResponse of the given docType from the holder seeded `seed`, or nothing (nil); the
    /// trust anchor files of both holders.
    static func answer(_ directory: String, _ plan: [(docType: String, seed: UInt64)?]) throws -> (response: String, trust: [String]) {
        let (protocolIdentifier, data) = try dcRequest(directory)
        let request = try OpenID4VPRequest(protocolIdentifier: protocolIdentifier, data: data, origin: origin)
        let at = VectorFiles.date(time)
        var presentations: [OpenID4VPRequest.Presentation] = []
        for (query, entry) in zip(request.queries, plan) {
            guard let (docType, seed) = entry else { continue }
            var options = SimulationOptions(time: at)
            options.docType = docType
            options.elements = [docType == DocType.mDL ? ElementID(NameSpace.mDL, "family_name") : ElementID(NameSpace.iso23220, "family_name_unicode")]
            let response = try MdocSimulator(pki: try TestPKI(seed: seed, at: at)).simulate(.openID4VP(request), options: options)
            presentations.append(.init(queryID: query.id, deviceResponses: [response.deviceResponse]))
        }
        let trust = try [23, 24].map { seed in try MdocVerifyCLITests.temporaryFile(Array(try TestPKI(seed: seed, at: at).iacaPEM.utf8)) }
        return (try MdocVerifyCLITests.temporaryFile(Array(try request.answer(presentations).utf8)), trust)
    }

    @Test("an mDL and a photo ID requested: both right verify (exit 0); two mDLs of two holders, or the two swapped, are vp_token.doctype_mismatch; one query unanswered is vp_token.query_unanswered (exit 1)")
    func queryBinding() throws {
        let out = try Self.createRequest(json: Self.twoDocumentRequestJSON)
        func run(_ plan: [(docType: String, seed: UInt64)?]) throws -> MdocVerifyCLI.Run {
            let (response, trust) = try Self.answer(out, plan)
            return try Self.verify(out, response: response, trust: trust)
        }
        let right = try run([(DocType.mDL, 23), (DocType.photoID, 23)])
        #expect(right.status == 0, "\(right.stdout)")
        #expect(right.stdout.contains("family_name_unicode"))
        let twoMDLs: [(docType: String, seed: UInt64)?] = [(DocType.mDL, 23), (DocType.mDL, 24)]
        let swapped: [(docType: String, seed: UInt64)?] = [(DocType.photoID, 23), (DocType.mDL, 23)]
        for plan in [twoMDLs, swapped] {
            let wrong = try run(plan)
            #expect(wrong.status == 1)
            #expect(wrong.stdout.contains("vp_token.doctype_mismatch") && wrong.stdout.contains("org_iso_23220_photoid_1"), "\(wrong.stdout)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(wrong.stdout.utf8)) as? [String: Any])
            #expect((report["documents"] as? [Any] ?? []).isEmpty)
        }
        let unanswered = try run([(DocType.mDL, 23), nil])
        #expect(unanswered.status == 1)
        #expect(unanswered.stdout.contains("vp_token.query_unanswered") && unanswered.stdout.contains("org_iso_23220_photoid_1"), "\(unanswered.stdout)")
    }

    @Test("a session kept before the query doctypes were takes them from its request: two mDLs are still vp_token.doctype_mismatch")
    func sessionWithoutQueryDocTypes() throws {
        let out = try Self.createRequest(json: Self.twoDocumentRequestJSON)
        let url = URL(fileURLWithPath: out + "/session.json")
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var state = try #require(document["state"] as? [String: Any])
        #expect(state.removeValue(forKey: "queryDocTypes") != nil)
        // As an earlier version kept them: the query ids joined by commas.
        state["queryIDs"] = try #require(state["queryIDs"] as? [String]).joined(separator: ",")
        document["state"] = state
        try JSONSerialization.data(withJSONObject: document).write(to: url)
        let (response, trust) = try Self.answer(out, [(DocType.mDL, 23), (DocType.mDL, 24)])
        let run = try Self.verify(out, response: response, trust: trust)
        #expect(run.status == 1)
        #expect(run.stdout.contains("vp_token.doctype_mismatch"), "\(run.stdout)")
        let (good, goodTrust) = try Self.answer(out, [(DocType.mDL, 23), (DocType.photoID, 24)])
        #expect(try Self.verify(out, response: good, trust: goodTrust).status == 0)
    }

    @Test("dc_api.jwt (the default) and dc_api: request, wallet answer, verify → exit 0 with the requested elements")
    func roundTrip() throws {
        for mode in ["dc_api.jwt", "dc_api"] {
            let out = try Self.createRequest(["--response-mode", mode])
            let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
            #expect(names == ["dc-request.json", "request.json", "session.json"])
            let permissions = try FileManager.default.attributesOfItem(atPath: out + "/session.json")[.posixPermissions] as? Int
            #expect(permissions == 0o600)
            let (protocolIdentifier, data) = try Self.dcRequest(out)
            #expect(protocolIdentifier == "openid4vp-v1-unsigned")
            #expect(data.contains(#""response_mode":"\#(mode)""#) && data.contains(#""doctype_value":"org.iso.18013.5.1.mDL""#))
            #expect(data.contains("jwks") == (mode == "dc_api.jwt"))
            let (response, trust) = try Self.walletResponse(out)
            let run = try Self.verify(out, response: response, trust: trust)
            #expect(run.status == 0, "\(mode): \(run.stdout)")
            #expect(run.stdout.contains(#""format": "openid4vp""#), "\(run.stdout)")
            #expect(run.stdout.contains("family_name") && run.stdout.contains("age_over_21"))
        }
    }

    @Test("an answer made for another request's key fails jwe.decryption_failed (exit 1); a tampered ciphertext too")
    func otherRequest() throws {
        let first = try Self.createRequest()
        let second = try Self.createRequest()
        let (response, trust) = try Self.walletResponse(first)
        let run = try Self.verify(second, response: response, trust: trust)
        #expect(run.status == 1)
        #expect(run.stdout.contains("jwe.decryption_failed"), "\(run.stdout)")
        let (tampered, trust2) = try Self.walletResponse(first, faults: [.corruptedCiphertext])
        #expect(try Self.verify(first, response: tampered, trust: trust2).stdout.contains("jwe.decryption_failed"))
    }

    @Test("with a reader identity the request is a JWS (typ oauth-authz-req+jwt, x5c) whose signature verifies with the leaf; client_id is x509_hash of it, expected_origins the origin")
    func signedRequest() throws {
        let reader = try TestReaderPKI()
        let leaf = reader.identity.certificates[0]
        let cert = try MdocVerifyCLITests.temporaryFile(Array(leaf.pemEncoded.utf8))
        let key = try MdocVerifyCLITests.temporaryFile(Array(reader.identity.key.pkcs8PEM().utf8))
        let out = try Self.createRequest(["--reader-cert", cert, "--reader-key", key])
        let (protocolIdentifier, data) = try Self.dcRequest(out)
        #expect(protocolIdentifier == "openid4vp-v1-signed")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: String])
        let segments = try #require(object["request"]).split(separator: ".").map(String.init)
        #expect(segments.count == 3)
        let header = try Self.jsonSegment(segments[0])
        #expect(header["alg"] as? String == "ES256" && header["typ"] as? String == "oauth-authz-req+jwt")
        #expect((header["x5c"] as? [String])?.first == Data(leaf.derEncoded).base64EncodedString())
        let signature = try #require(Base64URL.decodeStrict(segments[2]))
        #expect(try leaf.publicKey().isValidSignature(signature, for: Array((segments[0] + "." + segments[1]).utf8), digest: .sha256))
        let payload = try Self.jsonSegment(segments[1])
        #expect(payload["client_id"] as? String == "x509_hash:" + Base64URL.encode(Digest.hash(.sha256, leaf.derEncoded)))
        #expect(payload["expected_origins"] as? [String] == [Self.origin])
        // The kit's wallet reads the signed request too, and its answer verifies.
        let (response, trust) = try Self.walletResponse(out)
        #expect(try Self.verify(out, response: response, trust: trust).status == 0)
    }
}
