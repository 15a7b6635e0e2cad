import CBOR
import MdocModel

extension SessionTranscript {
    /// The session transcript for OpenID4VP 1.0 over the Digital Credentials API (Appendix B.2.6.2,
    /// `OpenID4VPDCAPIHandover`).
    ///
    /// `[null, null, ["OpenID4VPDCAPIHandover", SHA-256(cbor([origin, nonce, jwkThumbprint / null]))]]`.
    /// `origin` is the serialized origin without an `origin:` prefix; `jwkThumbprint` is the RFC 7638 thumbprint
    /// of the response-encryption key for `dc_api.jwt`, nil (null) for `dc_api`.
    public static func openID4VPDCAPI(origin: String, nonce: String, jwkThumbprint: [UInt8]?) -> SessionTranscript {
        let info: CBORValue = .array([.text(origin), .text(nonce), jwkThumbprint.map { .bytes($0) } ?? .null])
        return SessionTranscript(built: .array([.null, .null, .array([.text("OpenID4VPDCAPIHandover"), .bytes(hash(info))])]))
    }

    /// The session transcript for OpenID4VP draft 24 over the Digital Credentials API (Appendix B.3.4, before 1.0).
    ///
    /// `[null, null, ["OpenID4VPDCAPIHandover", SHA-256(cbor([origin, client_id, nonce]))]]`, where `clientID` is
    /// the effective client identifier the wallet saw, e.g. `web-origin:https://shop.example` for unsigned requests.
    public static func openID4VPDCAPIDraft24(origin: String, clientID: String, nonce: String) -> SessionTranscript {
        let info: CBORValue = .array([.text(origin), .text(clientID), .text(nonce)])
        return SessionTranscript(built: .array([.null, .null, .array([.text("OpenID4VPDCAPIHandover"), .bytes(hash(info))])]))
    }
}
