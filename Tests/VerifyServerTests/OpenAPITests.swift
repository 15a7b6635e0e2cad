import Foundation
import Testing
import TestSupport
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
            for method in methods where ["get", "post", "put", "delete", "patch", "head"].contains(method) {
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
        try await ServerFixture.withServer { server in
            for operation in operations.sorted() {
                let parts = operation.split(separator: " ", maxSplits: 1).map(String.init)
                let response = parts[0] == "POST"
                    ? try await server.client.post(parts[1], json: "{}")
                    : try await server.client.get(parts[1])
                #expect(response.status != 404 && response.status != 405, "\(operation) answered \(response.status)")
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
