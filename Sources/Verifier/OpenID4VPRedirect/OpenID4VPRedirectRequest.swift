import CryptoCore
import Foundation
import MdocModel

/// An OpenID4VP 1.0 request by reference, for a wallet reached by a QR code (cross-device) or a link (same-device)
/// rather than the browser's Digital Credentials API (docs/formats.md §8.1): the authorization request
/// `openid4vp://?client_id=…&request_uri=…&request_uri_method=post` and the session the verifier keeps. The request
/// object itself is signed when the wallet fetches it (`OpenID4VPRedirectSession.requestObject`), so that it can echo
/// the wallet's `wallet_nonce`.
public struct OpenID4VPRedirectRequest: Sendable {
    /// What the verifier keeps until the answer: store it server-side, serve its request object once, use it once.
    public let session: OpenID4VPRedirectSession

    /// The URL scheme of a cross-device authorization request (OpenID4VP 1.0 §13.1.2).
    public static let defaultScheme = "openid4vp://"

    /// Creates a request for `policy`, signed by `reader` (its leaf certificate names the verifier to the wallet
    /// through the `client_id`): a fresh `nonce` and `state`, a DCQL query, and for `direct_post.jwt` a fresh P-256
    /// encryption key; the request object is served at `requestURI` until `expiresAt`, the answer posted to
    /// `responseURI`.
    ///
    /// `trustedAuthorities` (docType → key identifiers, see `IssuerIdentifiers.narrowed(_:in:)`) become each
    /// credential query's `trusted_authorities` of type `aki`. Under `profile` `.haip` the client identifier must be
    /// `x509_hash`, the reader certificate not self-signed, the response mode `direct_post.jwt`.
    ///
    /// Throws `redirect.request_invalid` for a `requestURI` or `responseURI` that is not an absolute https URL (http
    /// only to a loopback host, for tests), and `input.malformed` for an empty policy, a reader certificate without the
    /// dNSName `x509_san_dns` needs, or settings the profile refuses.
    public static func create(policy: RequestPolicy, reader: ReaderIdentity, requestURI: String, responseURI: String,
                              expiresAt: Date, clientIDPrefix: OpenID4VPWebRequest.ClientIDPrefix = .x509Hash,
                              responseMode: OpenID4VPRedirectSession.ResponseMode = .directPostJWT, profile: OpenID4VPProfile = .default,
                              trustedAuthorities: [String: [[UInt8]]] = [:]) throws(VerificationError) -> OpenID4VPRedirectRequest {
        var problems = profile.requestProblems(reader: reader, responseMode: .dcAPIJWT, clientIDPrefix: clientIDPrefix)
        if profile == .haip, responseMode != .directPostJWT {
            problems.append("HAIP 1.0 §5 makes the verifier ask for an encrypted response; the response mode is direct_post, "
                            + "use direct_post.jwt (server: openid4vpRedirectResponseMode)")
        }
        guard problems.isEmpty else { throw VerificationError(.inputMalformed, problems.joined(separator: "; ")) }
        try RedirectURL.validate(requestURI, what: "request_uri")
        try RedirectURL.validate(responseURI, what: "response_uri")
        let query = try DCQLQuery(policy, trustedAuthorities: trustedAuthorities)
        var key: PrivateKey?
        var jwk: EncryptionJWK?
        if responseMode == .directPostJWT {
            do {
                let generated = try PrivateKey.generate(.p256)
                key = generated
                jwk = try EncryptionJWK(publicKey: generated.publicKey, kid: Base64URL.encode(SecureRandom.bytes(12)))
            } catch let error as VerificationError {
                throw error
            } catch {
                throw VerificationError(.inputMalformed, "cannot generate a P-256 encryption key: \(error)")
            }
        }
        let docTypes = Dictionary(zip(query.ids, policy.documents.map(\.docType)), uniquingKeysWith: { first, _ in first })
        let session = OpenID4VPRedirectSession(
            clientID: try OpenID4VPWebRequest.clientIdentifier(reader, prefix: clientIDPrefix), requestURI: requestURI,
            responseURI: responseURI, nonce: Base64URL.encode(SecureRandom.bytes(32)), state: Base64URL.encode(SecureRandom.bytes(32)),
            responseMode: responseMode, encryptionKey: key, jwk: jwk, queryIDs: query.ids, queryDocTypes: docTypes,
            dcqlQuery: query.json.serialized(), profile: profile, expiresAt: expiresAt)
        return OpenID4VPRedirectRequest(session: session)
    }

    /// The authorization request a QR code or link carries: `scheme` (`openid4vp://` by default; a wallet's own
    /// https URL for a same-device link) with `client_id`, `request_uri` and `request_uri_method=post`, each
    /// percent-encoded.
    public func authorizationRequest(scheme: String = defaultScheme) -> String {
        let query = [("client_id", session.clientID), ("request_uri", session.requestURI), ("request_uri_method", "post")]
            .map { "\($0)=\(FormEncoding.encode($1))" }.joined(separator: "&")
        return scheme + (scheme.contains("?") ? "&" : "?") + query
    }
}

/// The URLs a request publishes: absolute https URLs (http only to a loopback host, which only a test uses), with a
/// host, without a fragment or user information, at most 2,048 characters.
enum RedirectURL {
    static func validate(_ text: String, what: String) throws(VerificationError) {
        guard text.utf8.count <= 2_048, let components = URLComponents(string: text), let host = components.host, !host.isEmpty,
              components.fragment == nil, components.user == nil, components.password == nil
        else {
            throw VerificationError(.redirectRequestInvalid, "the \(what) \(InputQuote.short(text)) is not an absolute URL with a host, "
                                    + "without fragment or user information, of at most 2,048 characters")
        }
        guard components.scheme == "https" || (components.scheme == "http" && LoopbackHost.contains(host)) else {
            throw VerificationError(.redirectRequestInvalid, "the \(what) \(InputQuote.short(text)) must use https (OpenID4VP 1.0 §5.10, "
                                    + "§8.2); http is accepted only for a loopback host, in tests")
        }
    }
}
