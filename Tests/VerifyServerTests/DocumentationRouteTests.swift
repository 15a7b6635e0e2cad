import CryptoCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Mdoc
import MdocModel
import MdocTesting
import Testing
import Verifier

/// The route of the DocC article "Verifying in your own server", compiled and driven through Hummingbird's test
/// client on a live loopback server: a kept request verifies once (200 with the report), and its replay finds nothing (409).
@Suite("Documentation examples: a Hummingbird route")
struct DocumentationRouteTests {
    struct Kept: Sendable {
        let format: VerificationReport.Format
        let state: KeptState
        let policy: RequestPolicy?
    }

    /// The relying party's own single-use store.
    actor Store {
        var requests: [String: Kept] = [:]
        func keep(_ id: String, _ kept: Kept) { requests[id] = kept }
        func consume(_ id: String) -> Kept? { requests.removeValue(forKey: id) }
    }

    struct VerifyBody: Decodable { let requestID: String; let response: String }

    @Test("the article's route answers 200 with a verified report, then 409 for the replay")
    func route() async throws {
        let time = Date()
        let pki = try TestPKI(seed: 11, at: time)
        let merchantKey = try PrivateKey.generate(.p256)
        let configuration = VerifierConfiguration(trustStore: pki.trustStore, revocation: .off)
        let environment = FlowEnvironment(configuration: configuration, recipientKeys: [merchantKey],
                                          merchantID: "merchant.com.example", teamID: "ABCDE12345")
        let flows = Dictionary(uniqueKeysWithValues: try FormatRegistry.flows(environment).map { ($0.format, $0) })
        let store = Store()

        let policy = RequestPolicy(documents: [
            .init(docType: "org.iso.18013.5.1.mDL", nameSpaces: ["org.iso.18013.5.1": ["age_over_21": false]]),
        ])
        let prepared = try #require(flows[.appleApp]).prepare(policy: policy, origin: nil)
        await store.keep("r1", Kept(format: .appleApp, state: prepared.state, policy: policy))
        var options = SimulationOptions(time: time)
        options.elements = [ElementID(NameSpace.mDL, "age_over_21")]
        let walletRequest = try AppleAppRequest(prepared: prepared, merchantKey: merchantKey.publicKey,
                                                merchantID: "merchant.com.example", teamID: "ABCDE12345")
        let response = try MdocSimulator(pki: pki).simulate(.appleApp(walletRequest), options: options)

        let router = Router()
        router.post("/verify") { request, context -> Response in
            let body = try await request.decode(as: VerifyBody.self, context: context)
            guard let kept = await store.consume(body.requestID),
                  let flow = flows[kept.format] else {
                return Response(status: .conflict)
            }
            let report = flow.verify(response: body.response, state: kept.state, policy: kept.policy, at: time)
            let bytes = report.json.serializedBytes()
            return Response(status: report.verified ? .ok : .unprocessableContent,
                            headers: [.contentType: "application/json"],
                            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }

        let posted = #"{"requestID":"r1","response":"\#(Data(response.bytes).base64EncodedString())"}"#
        // A live server on loopback (port 0: any free port); the in-memory router client of HummingbirdTesting
        // leaves NIOEmbedded channels behind, which LeakSanitizer reports at exit.
        let application = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await application.test(.live) { client in
            try await client.execute(uri: "/verify", method: .post, headers: [.contentType: "application/json"],
                                     body: ByteBuffer(string: posted)) { answer in
                #expect(answer.status == .ok)
                #expect(String(buffer: answer.body).contains(#""verified":true"#))
            }
            try await client.execute(uri: "/verify", method: .post, headers: [.contentType: "application/json"],
                                     body: ByteBuffer(string: posted)) { answer in
                #expect(answer.status == .conflict)
            }
        }
    }
}
