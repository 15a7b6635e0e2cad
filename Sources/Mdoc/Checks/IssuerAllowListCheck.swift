import CryptoCore
import MdocModel

extension DocumentCheck {
    /// The anchor the trusted chain ends at must be on the request's issuer allow-list, compared by the key identifier
    /// requests offer (`IssuerIdentifiers.identifier(of:)`), so what the app or page restricted is what the verifier
    /// accepts. The anchor comes from the trust store, never from the response.
    static let policyIssuer = DocumentCheck(.policyIssuer, needs: .requestPolicy, .trustedChain, stage: nil) {
        $0.checkAllowedIssuer(request: $1, chain: $2)
    }
}

extension DocumentVerification {
    mutating func checkAllowedIssuer(request: RequestPolicy, chain: [Certificate]) {
        let allowed = request.allowedIssuers
        guard let anchor = chain.last else { return }
        guard !allowed.isEmpty else {
            pass(.policyIssuer, "the request names no issuer allow-list: any trusted issuer")
            return
        }
        guard let identifier = IssuerIdentifiers.identifier(of: anchor) else {
            fail(.policyIssuer, .policyIssuerNotAllowed, "the document is anchored at \(anchor.subject), which has no key identifier an "
                 + "allow-list can name, so it is not on the request's allow-list")
            return
        }
        let named = "\(anchor.subject) (key identifier \(Base64URL.encode(identifier)))"
        if allowed.contains(identifier) {
            pass(.policyIssuer, "the document's issuer \(named) is on the request's allow-list")
        } else {
            fail(.policyIssuer, .policyIssuerNotAllowed, "the document's issuer \(named) is not on the request's allow-list of "
                 + "\(allowed.count) issuer(s); add its key identifier to allowedIssuers to accept it")
        }
    }
}
