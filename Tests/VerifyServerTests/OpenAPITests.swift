import Foundation
import MdocModel
import MdocTrust
import Testing
import TestSupport
import Mdoc
import Verifier
import VerifyServer
import Yams

/// docs/openapi.yaml and the server's routes describe the same API.
@Suite("OpenAPI document matches the routes")
struct OpenAPITests {
    static func documentedOperations() throws -> Set<String> {
        let text = VectorFiles.text("docs/openapi.yaml")
        let document = try #require(try Yams.load(yaml: text) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: Any])
        var operations = Set<String>()
        for (path, item) in paths {
            let methods = try #require(item as? [String: Any]).keys
            for method in methods where ["get", "post", "put", "delete", "patch", "head", "options"].contains(method) {
                operations.insert("\(method.uppercased()) \(path)")
            }
        }
        return operations
    }

    @Test("every route is documented and every documented operation is a route")
    func sameOperations() throws {
        let routes = Set(Endpoint.allCases.map { "\($0.method) \($0.path)" })
        #expect(try Self.documentedOperations() == routes)
    }

    @Test("every documented operation is answered by a running server (no 404 or 405)")
    func documentedOperationsAnswer() async throws {
        let operations = try Self.documentedOperations()
        var configuration = AppleSample.configuration()
        configuration.inspector = true
        // The operator route answers 404 unless a token is configured (401 without it then).
        let tokenFile = FileManager.default.temporaryDirectory.appendingPathComponent("operator-token-\(UUID().uuidString)")
        try Data("token".utf8).write(to: tokenFile)
        defer { try? FileManager.default.removeItem(at: tokenFile) }
        configuration.operatorTokenFile = tokenFile.path
        configuration.demoOrigin = "http://127.0.0.1:8080"
        try await ServerFixture.withServer(configuration) { server in
            for operation in operations.sorted() {
                var parts = operation.split(separator: " ", maxSplits: 1).map(String.init)
                // A path parameter gets a well-formed ID that was never created.
                let templated = parts[1].contains("{")
                parts[1] = parts[1].replacingOccurrences(of: "{requestId}", with: "00000000-0000-4000-8000-000000000000")
                let response = switch parts[0] {
                case "POST": try await server.client.post(parts[1], json: "{}")
                case "HEAD": try await server.client.send(method: .HEAD, path: parts[1], body: nil)
                case "OPTIONS": try await server.client.send(method: .OPTIONS, path: parts[1], body: nil)
                default: try await server.client.get(parts[1])
                }
                // A path with a request ID answers 404 nonce.unknown for one never created, not the router's bodiless 404.
                let unknownID = templated && response.status == 404 && (try? errorCode(response)) == "nonce.unknown"
                #expect(unknownID || (response.status != 404 && response.status != 405), "\(operation) answered \(response.status)")
            }
            let undocumented = try await server.client.get("/v1/undocumented")
            #expect(undocumented.status == 404)
        }
    }

    @Test("the README points to the OpenAPI document")
    func readmeLinks() {
        #expect(VectorFiles.text("README.md").contains("docs/openapi.yaml"))
    }
}

/// The README's table and docs/openapi.yaml list exactly the codes the library and the server can raise.
@Suite("Error codes are documented")
struct ErrorCodeDocumentationTests {
    static let allCodes = Set(ErrorCode.allServerAnswers.map(\.rawValue))

    @Test("the README's error-code table lists every code, and no other")
    func readme() {
        let readme = VectorFiles.text("README.md")
        let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `") }
        let documented = Set(rows.compactMap { row in row.split(separator: "`").dropFirst().first.map(String.init) }
            .filter { $0.contains(".") && !$0.contains(" ") && $0.first?.isLowercase == true && !$0.hasSuffix(".swift") })
        #expect(documented.isSuperset(of: Self.allCodes), "missing: \(Self.allCodes.subtracting(documented).sorted())")
        let stray = documented.subtracting(Self.allCodes).filter { code in
            ["input", "envelope", "hpke", "response", "issuer", "mso", "digest", "device", "policy", "element", "reader_auth", "nonce", "store", "status", "revocation"]
                .contains(String(code.split(separator: ".").first ?? ""))
        }
        #expect(stray.isEmpty, "documented but never raised: \(stray.sorted())")
    }

    @Test("the DocC Error codes article lists every code once, and no other, each with a cause and what to do")
    func docCArticle() {
        let article = VectorFiles.text("Sources/Verifier/Verifier.docc/ErrorCodes.md")
        let rows = article.split(separator: "\n").filter { $0.hasPrefix("| `") }
        let cells = rows.map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
        let documented = cells.compactMap { $0.first?.trimmingCharacters(in: CharacterSet(charactersIn: "`")) }
        let expected = Self.allCodes.union(ErrorCode.trustCodes.map(\.rawValue))
        #expect(Set(documented) == expected, "missing: \(expected.subtracting(documented).sorted()); stray: \(Set(documented).subtracting(expected).sorted())")
        #expect(documented.count == Set(documented).count, "a code is listed twice")
        for row in cells {
            #expect(row.count == 3 && row.allSatisfy { !$0.isEmpty }, "row without a cause or an action: \(row)")
        }
    }

    @Test("docs/openapi.yaml's ErrorCode enum lists every code, and no other")
    func openAPI() throws {
        let document = try #require(try Yams.load(yaml: VectorFiles.text("docs/openapi.yaml")) as? [String: Any])
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let codes = try #require((schemas["ErrorCode"] as? [String: Any])?["enum"] as? [String])
        #expect(Set(codes) == Self.allCodes)
        #expect(codes.count == Self.allCodes.count)
    }
}
