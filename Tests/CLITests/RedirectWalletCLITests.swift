import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MdocTesting
import Testing
import TestSupport

/// `mdocverify simulate openid4vp-redirect` as the whole wallet against the built verify-server: it fetches the
/// request object from the published request_uri, checks it, answers, and posts to response_uri.
@Suite("mdocverify simulate openid4vp-redirect over HTTP")
struct RedirectWalletCLITests {
    /// `POST /v1/transactions` for an openid4vp-redirect mDL request: the request ID and the authorization request.
    static func create(_ server: ConformanceServerCLITests.Server, key: String) async throws -> (id: String, authorization: String) {
        var request = URLRequest(url: server.url.appendingPathComponent("v1/transactions"))
        request.httpMethod = "POST"
        request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"format":"openid4vp-redirect","origin":"https://shop.example","documents":[{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"family_name":false}}}]}"#.utf8)
        let (data, _) = try await URLSession.shared.data(for: request)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (try #require(object["requestId"] as? String), try #require(object["authorizationRequest"] as? String))
    }

    /// `GET /v1/transactions/{id}`: the status and the report's error codes.
    static func result(_ server: ConformanceServerCLITests.Server, key: String, id: String) async throws -> (String, [String]) {
        var request = URLRequest(url: server.url.appendingPathComponent("v1/transactions/\(id)"))
        request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
        let (data, _) = try await URLSession.shared.data(for: request)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let errors = ((object["report"] as? [String: Any])?["errors"] as? [[String: Any]]) ?? []
        return (object["status"] as? String ?? "", errors.compactMap { $0["code"] as? String })
    }

    @Test("--post: fetched with a wallet_nonce, checked, answered and posted; the backend reads verified; a second run finds the object fetched (409)")
    func fetchesAndPosts() async throws {
        let folder = try ConformanceServerCLITests.setUp(trustCorpus: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, key) = try ConformanceServerCLITests.backendServer(folder)
        defer { server.stop() }
        let request = folder.appendingPathComponent("request.json")
        try #"{"documents":[{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"family_name":false}}}]}"#
            .write(to: request, atomically: true, encoding: .utf8)
        let created = try await Self.create(server, key: key)
        // The corpus's seed: the IACA the server trusts.
        let wallet = ["simulate", "openid4vp-redirect", "--authorization-request", created.authorization, "--post", "--request", request.path,
                      "--seed", "\(ConformanceCorpus.defaultSeed)", "--out", folder.appendingPathComponent("wallet").path]
        let run = try MdocVerifyCLI.run(wallet)
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("posted:   response_uri answered 200"), "\(run.stdout)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("wallet/request-object.jwt").path))
        let (status, codes) = try await Self.result(server, key: key, id: created.id)
        #expect(status == "verified", "\(codes)")

        let again = try MdocVerifyCLI.run(wallet)
        #expect(again.status == 2 && again.stderr.contains("request_uri answered 409"), "\(again.stderr)")
    }

    @Test("a request_uri that is not http(s), or that does not answer, is a usage error naming it")
    func refusesBadRequestURI() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("redirect-wallet-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (requestURI, expected) in [("file:///etc/passwd", "not an absolute http(s) URL"), ("http://127.0.0.1:9/request", "POST \"http://127.0.0.1:9/request\" failed")] {
            let escaped = try #require(requestURI.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let url = "openid4vp://?client_id=x509_hash%3Aabc&request_uri=" + escaped
            let run = try MdocVerifyCLI.run(["simulate", "openid4vp-redirect", "--authorization-request", url, "--timeout", "5",
                                             "--out", folder.path])
            #expect(run.status == 2 && run.stderr.contains(expected), "\(run.stderr)")
        }
    }
}
