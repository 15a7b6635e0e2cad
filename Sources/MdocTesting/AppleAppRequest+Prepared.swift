import CryptoCore
import Mdoc
import MdocModel
import Verifier

extension AppleAppRequest {
    /// The request a wallet answers for an Apple in-app request your server prepared through `RequestFlow`: the nonce
    /// is the one the app receives in the prepared request's public `nonce` field (base64url).
    ///
    /// Throws `SimulationError.invalidOption` when the prepared request carries no such nonce (another format's).
    public init(prepared: PreparedRequest, merchantKey: PublicKey, merchantID: String, teamID: String) throws(SimulationError) {
        guard case .string(let text)? = prepared.publicFields.first(where: { $0.0 == "nonce" })?.1,
              let nonce = Base64URL.decode(text), !nonce.isEmpty
        else {
            throw SimulationError.invalidOption("the prepared request has no base64url nonce (not an apple-app request)")
        }
        self.init(merchantKey: merchantKey, nonce: nonce, merchantID: merchantID, teamID: teamID)
    }
}
