import CryptoCore
import Foundation
import Mdoc
import MdocModel
import Testing
import TestSupport

/// `verify openid4vp` on what a page posts: the text ceiling on the text's own bytes, and JWE header members of
/// the wrong JSON type.
@Suite("mdocverify verify openid4vp: text ceiling and JWE header types")
struct OpenID4VPInputCLITests {
    static let limit = 5_596_500

    static func errorMessages(_ run: MdocVerifyCLI.Run) throws -> [(code: String, message: String)] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout) \(run.stderr)")
        return (object["errors"] as? [[String: Any]] ?? []).map { ($0["code"] as? String ?? "", $0["message"] as? String ?? "") }
    }

    @Test("a wallet answer padded to 4/3 × 4 MiB + 4 KiB bytes verifies (exit 0); one byte more is input.malformed (exit 1)")
    func textCeiling() throws {
        let out = try OpenID4VPCLITests.createRequest()
        let (response, trust) = try OpenID4VPCLITests.walletResponse(out)
        let answer = try String(contentsOfFile: response, encoding: .utf8)
        for (extra, status) in [(0, Int32(0)), (1, Int32(1))] {
            let padded = answer + String(repeating: " ", count: Self.limit - answer.utf8.count + extra)
            let file = try MdocVerifyCLITests.temporaryFile(Array(padded.utf8))
            let run = try OpenID4VPCLITests.verify(out, response: file, trust: trust)
            #expect(run.status == status, "\(extra): \(run.stdout) \(run.stderr)")
            if extra > 0 {
                let errors = try Self.errorMessages(run)
                #expect(errors.first?.code == "input.malformed")
                #expect(errors.first?.message.hasPrefix("the response is 5596501 bytes of text; the limit is 5596500") == true, "\(errors)")
            }
        }
        // 6,000,000 characters were once counted as 4,500,000 bytes and let through.
        let wide = try MdocVerifyCLITests.temporaryFile(Array(String(repeating: "a", count: 6_000_000).utf8))
        let run = try OpenID4VPCLITests.verify(out, response: wide, trust: trust)
        #expect(run.status == 1)
        #expect(try Self.errorMessages(run).first?.message.hasPrefix("the response is 6000000 bytes of text; the limit is 5596500") == true)
    }

    @Test("a JWE whose kid is a number, or whose crit is a string or empty, is jwe.malformed (exit 1)")
    func jweHeaderTypes() throws {
        let out = try OpenID4VPCLITests.createRequest()
        let (response, trust) = try OpenID4VPCLITests.walletResponse(out)
        let posted = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: response))) as? [String: Any])
        var data = try #require(posted["data"] as? [String: Any])
        let jwe = try #require(data["response"] as? String)
        var segments = jwe.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let headerBytes = try #require(Base64URL.decodeStrict(segments[0]))
        let header = try #require(try JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any])
        let edits: [(String, Any)] = [("kid", 5), ("crit", "b64"), ("crit", [String]()), ("zip", 1)]
        for (member, value) in edits {
            var edited = header
            edited[member] = value
            segments[0] = Base64URL.encode(try JSONSerialization.data(withJSONObject: edited))
            data["response"] = segments.joined(separator: ".")
            var body = posted
            body["data"] = data
            let file = try MdocVerifyCLITests.temporaryFile(Array(try JSONSerialization.data(withJSONObject: body)))
            let run = try OpenID4VPCLITests.verify(out, response: file, trust: trust)
            #expect(run.status == 1, "\(member): \(run.stdout)")
            let errors = try Self.errorMessages(run)
            #expect(errors.map(\.code) == ["jwe.malformed"], "\(member): \(errors)")
            #expect(errors.first?.message.contains("`\(member)`") == true, "\(member): \(errors)")
        }
    }
}
