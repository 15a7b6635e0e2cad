import CBOR
import CryptoCore
import Foundation
import MdocModel
import MdocTesting
import Verifier

/// The kit's side of `org-example-test`: its wallet (the DeviceResponse as base64url, posted as the DC API answer's
/// `data.response`) and the relying party of a seeded case.
struct OrgExampleTestWallet: WalletSide {
    let origin: String
    let nonce: [UInt8]

    var format: ResponseFormat { .orgExampleTest }
    var transcript: SessionTranscript { OrgExampleTestFlow.transcript(origin: origin, nonce: nonce) }
    var otherTranscript: SessionTranscript { OrgExampleTestFlow.transcript(origin: origin, nonce: Digest.hash(.sha256, nonce)) }

    func wrap(_ deviceResponse: [UInt8], faults: Set<Fault>, extraEntries: [(CBORValue, CBORValue)], pki: TestPKI) throws
        -> (bytes: [UInt8], text: String?) {
        (deviceResponse, Base64URL.encode(deviceResponse))
    }
}

extension KitFormat {
    /// The origin of the seeded cases' page.
    static let exampleOrigin = "https://shop.example"

    package static let orgExampleTest = KitFormat(
        format: .orgExampleTest, transportFaults: [], transportCodes: [:], refusesDeviceMac: true,
        corpus: .session(responseFile: "response.txt"),
        answering: { published in
            guard let nonce = Base64URL.decodeStrict(try published.text("nonce")) else {
                throw SimulationError.invalidOption("the org-example-test request's nonce is not base64url")
            }
            return ResponseTarget(OrgExampleTestWallet(origin: published.origin, nonce: nonce))
        }
    ) { seed in
        let nonce = seed.pki.seed.bytes("example-nonce", count: 16)
        return SeededRequest(target: ResponseTarget(OrgExampleTestWallet(origin: exampleOrigin, nonce: nonce)),
                             state: try KeptState(OrgExampleTestFlow.Kept(nonce: nonce, origin: exampleOrigin)),
                             environment: FlowEnvironment(configuration: seed.configuration))
    }
}

extension KitRegistry {
    /// The kit's built-in formats and `org-example-test`.
    package static let withExample = KitRegistry.standard.adding(.orgExampleTest, .orgExampleTest)
}
