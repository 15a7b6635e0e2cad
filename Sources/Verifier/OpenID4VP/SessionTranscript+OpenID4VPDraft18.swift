import CBOR
import MdocModel

extension SessionTranscript {
    /// The session transcript for ISO/IEC TS 18013-7:2024 Annex B (OpenID4VP draft 18), B.4.4 `OID4VPHandover`.
    ///
    /// `[null, null, [clientIdHash, responseUriHash, nonce]]` with
    /// `clientIdHash = SHA-256(cbor([client_id, mdocGeneratedNonce]))`,
    /// `responseUriHash = SHA-256(cbor([response_uri, mdocGeneratedNonce]))` and `nonce` the request's nonce
    /// as text. The wallet chooses `mdocGeneratedNonce` and returns it in the JWE `apu` header.
    /// Superseded by OpenID4VP 1.0 (`openID4VP`).
    public static func openID4VPDraft18(clientID: String, responseURI: String, nonce: String,
                                        mdocGeneratedNonce: String) -> SessionTranscript {
        SessionTranscript(built: .array([
            .null, .null,
            .array([
                .bytes(hash(.array([.text(clientID), .text(mdocGeneratedNonce)]))),
                .bytes(hash(.array([.text(responseURI), .text(mdocGeneratedNonce)]))),
                .text(nonce),
            ]),
        ]))
    }
}
