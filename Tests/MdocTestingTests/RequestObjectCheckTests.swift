import Foundation
import MdocModel
import MdocTesting
import Testing

/// The kit's wallet reads a request object as a wallet must: a compact JWS only, though `JWS` also reads the JSON
/// serialization (for LoTEs).
@Suite("The kit's wallet refuses a request object in the JWS JSON serialization")
struct RequestObjectCheckTests {
    @Test("the same signed request object, flattened into JSON, is refused as not compact")
    func jsonSerializationRefused() throws {
        let pki = try TestReaderPKI.shared()
        let compact = try JWS.sign(header: [("typ", .string("oauth-authz-req+jwt"))], payloadText: #"{"client_id":"x"}"#,
                                   key: pki.identity.key, chain: pki.identity.certificates)
        let parts = compact.split(separator: ".").map(String.init)
        let flattened = #"{"protected":"\#(parts[0])","payload":"\#(parts[1])","signature":"\#(parts[2])"}"#
        #expect {
            _ = try OpenID4VPRedirectWalletRequest(requestObject: flattened, clientID: "x", walletNonce: nil)
        } throws: { error in
            "\(error)".contains("not a compact JWS")
        }
        // The compact form gets past the serialization and is refused later, for what the payload lacks.
        #expect {
            _ = try OpenID4VPRedirectWalletRequest(requestObject: compact, clientID: "x", walletNonce: nil)
        } throws: { error in
            !"\(error)".contains("not a compact JWS")
        }
    }
}
