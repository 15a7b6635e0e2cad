import CBOR
import MdocModel

extension SessionTranscript {
    /// The session transcript for OpenID4VP 1.0 invoked via redirects (Appendix B.2.6.1, `OpenID4VPHandover`).
    ///
    /// `[null, null, ["OpenID4VPHandover", SHA-256(cbor([client_id, nonce, jwkThumbprint / null, response_uri]))]]`.
    ///
    /// - Parameters:
    ///   - clientID: the `client_id` request parameter, with its Client Identifier Prefix.
    ///   - nonce: the `nonce` request parameter.
    ///   - jwkThumbprint: RFC 7638 SHA-256 thumbprint of the response-encryption key when the response is
    ///     encrypted (`direct_post.jwt`; see `JWKThumbprint`), else nil (encoded as null).
    ///   - responseURI: the `response_uri` (or `redirect_uri`) request parameter.
    public static func openID4VP(clientID: String, nonce: String, jwkThumbprint: [UInt8]?, responseURI: String) -> SessionTranscript {
        let info: CBORValue = .array([.text(clientID), .text(nonce), jwkThumbprint.map { .bytes($0) } ?? .null, .text(responseURI)])
        return SessionTranscript(built: .array([.null, .null, .array([.text("OpenID4VPHandover"), .bytes(hash(info))])]))
    }
}
