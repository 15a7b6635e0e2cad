import CryptoCore
import Foundation
import LoopbackClient
import Mdoc
import MdocTesting
import Testing
import Verifier
import VerifyServer

/// An OpenID4VP request for an mDL and a photo ID through the server: every presentation must have its credential
/// query's docType, and every query must be answered, or `POST /v1/verify` is 422 with the code and releases nothing.
@Suite("verify-server: OpenID4VP presentations bound to their credential queries")
struct OpenID4VPQueryBindingServerTests {
    static let createBody = """
        {"format":"openid4vp","origin":"\(SimulatedWallet.origin)","documents":[\
        {"docType":"\(DocType.mDL)","nameSpaces":{"\(NameSpace.mDL)":{"family_name":false}}},\
        {"docType":"\(DocType.photoID)","nameSpaces":{"\(NameSpace.iso23220)":{"family_name_unicode":false}}}]}
        """

    /// A fresh request's id and the kit wallet's reading of its `{protocol, data}`.
    static func request(_ server: RunningServer) async throws -> (id: String, wallet: OpenID4VPRequest) {
        let created = try await server.client.post("/v1/requests", json: createBody)
        #expect(created.status == 201, "\(created.text)")
        let body = try jsonObject(created)
        let data = String(decoding: try JSONSerialization.data(withJSONObject: try #require(body["data"])), as: UTF8.self)
        let wallet = try OpenID4VPRequest(protocolIdentifier: try #require(body["protocol"] as? String), data: data, origin: SimulatedWallet.origin)
        return (try #require(body["requestId"] as? String), wallet)
    }

    /// A DeviceResponse of `docType` from `pki` for the wallet's request.
    static func deviceResponse(_ docType: String, from pki: TestPKI, for request: OpenID4VPRequest, time: Date) throws -> [UInt8] {
        var options = SimulationOptions(time: time)
        options.statusList = nil
        options.docType = docType
        options.elements = [docType == DocType.mDL ? ElementID(NameSpace.mDL, "family_name") : ElementID(NameSpace.iso23220, "family_name_unicode")]
        return try MdocSimulator(pki: pki).simulate(.openID4VP(request), options: options).deviceResponse
    }

    @Test("both right → 200 with both documents; two mDLs of two holders → 422 vp_token.doctype_mismatch; one query unanswered → 422 vp_token.query_unanswered",
          arguments: [OpenID4VPSession.ResponseMode.dcAPIJWT, .dcAPI])
    func binding(mode: OpenID4VPSession.ResponseMode) async throws {
        let wallet = try SimulatedWallet(time: Date())
        defer { wallet.remove() }
        // A second holder, from another issuer the server also trusts.
        let otherHolder = try TestPKI(seed: 8, at: wallet.time)
        let otherAnchor = wallet.folder.appendingPathComponent("other-iaca.pem")
        try otherHolder.iacaPEM.write(to: otherAnchor, atomically: true, encoding: .utf8)
        var configuration = wallet.configuration()
        configuration.trustStorePaths.append(otherAnchor.path)
        configuration.openID4VPResponseMode = mode
        try await ServerFixture.withServer(configuration, store: InMemoryRequestStore()) { server in
            func presentation(_ query: OpenID4VPRequest.CredentialQuery, _ docType: String, _ pki: TestPKI,
                              _ request: OpenID4VPRequest) throws -> OpenID4VPRequest.Presentation {
                .init(queryID: query.id, deviceResponses: [try Self.deviceResponse(docType, from: pki, for: request, time: wallet.time)])
            }

            let (rightID, right) = try await Self.request(server)
            let verified = try await server.client.post("/v1/verify", json: verifyJSON(rightID, response: try right.answer([
                try presentation(right.queries[0], DocType.mDL, wallet.pki, right),
                try presentation(right.queries[1], DocType.photoID, wallet.pki, right),
            ])))
            #expect(verified.status == 200, "\(verified.text)")
            let documents = try #require(try jsonObject(verified)["documents"] as? [[String: Any]])
            #expect(Set(documents.compactMap { $0["docType"] as? String }) == [DocType.mDL, DocType.photoID])

            let (twoID, two) = try await Self.request(server)
            let twoMDLs = try await server.client.post("/v1/verify", json: verifyJSON(twoID, response: try two.answer([
                try presentation(two.queries[0], DocType.mDL, wallet.pki, two),
                try presentation(two.queries[1], DocType.mDL, otherHolder, two),
            ])))
            #expect(twoMDLs.status == 422, "\(twoMDLs.text)")
            #expect(try errorCodes(twoMDLs) == ["vp_token.doctype_mismatch"])
            #expect(twoMDLs.text.contains(two.queries[1].id))
            #expect((try jsonObject(twoMDLs)["documents"] as? [Any] ?? []).isEmpty)

            let (oneID, one) = try await Self.request(server)
            let unanswered = try await server.client.post("/v1/verify", json: verifyJSON(oneID, response: try one.answer([
                try presentation(one.queries[0], DocType.mDL, wallet.pki, one),
            ])))
            #expect(unanswered.status == 422, "\(unanswered.text)")
            #expect(try errorCodes(unanswered) == ["vp_token.query_unanswered"])
            #expect(unanswered.text.contains(one.queries[1].id))
        }
    }
}
