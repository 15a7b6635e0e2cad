import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import Testing
import Verifier

/// The kit answers requests a server prepared through `RequestFlow`, as a wallet would.
@Suite("The kit answers prepared requests")
struct PreparedRequestTests {
    static let policy = RequestPolicy(documents: [
        .init(docType: DocType.mDL, nameSpaces: [NameSpace.mDL: ["age_over_21": false]]),
    ])

    @Test("an apple-app request carries the nonce the app received")
    func appleNonce() throws {
        let key = try PrivateKey.generate(.p256)
        let flows = try FormatRegistry.flows(FlowEnvironment(configuration: VerifierConfiguration(trustStore: TrustStore(anchors: [])),
                                                             recipientKeys: [key], merchantID: "m", teamID: "t"))
        let prepared = try #require(flows.first { $0.format == .appleApp }).prepare(policy: Self.policy, origin: nil)
        let request = try AppleAppRequest(prepared: prepared, merchantKey: key.publicKey, merchantID: "m", teamID: "t")
        #expect(request.nonce.count == 32)
        #expect(try AppleAppFlow.state(nonce: request.nonce) == prepared.state)
    }

    @Test("another format's prepared request is refused: it has no nonce field")
    func webRequestRefused() throws {
        let flows = try FormatRegistry.flows(FlowEnvironment(configuration: VerifierConfiguration(trustStore: TrustStore(anchors: []))))
        let prepared = try #require(flows.first { $0.format == .annexC }).prepare(policy: Self.policy, origin: "https://shop.example")
        #expect(throws: SimulationError.self) {
            _ = try AppleAppRequest(prepared: prepared, merchantKey: try PrivateKey.generate(.p256).publicKey,
                                    merchantID: "m", teamID: "t")
        }
    }
}
