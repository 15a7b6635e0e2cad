import CryptoCore
import Foundation
import MdocModel

/// An OpenID4VP 1.0 request for `navigator.credentials.get({digital: {requests: [{protocol, data}]}})` (docs/formats.md
/// §7.1), and the session the server keeps to verify its answer.
///
/// Unsigned (`openid4vp-v1-unsigned`): the parameters are `data`'s members, bound to the page's origin. Signed
/// (`openid4vp-v1-signed`, with a reader identity): `data = {"request": JWS}`, a request object signed with the
/// reader key (`typ: oauth-authz-req+jwt`, `x5c`), `client_id` `x509_hash:` (or `x509_san_dns:`) and
/// `expected_origins`. Both carry a `dcql_query` with one `mso_mdoc` credential query per requested docType and, for
/// `dc_api.jwt`, a fresh P-256 encryption JWK with `kid`.
public struct OpenID4VPWebRequest: Sendable {
    /// The client identifier prefix of signed requests (OpenID4VP 1.0 §5.9.3).
    public enum ClientIDPrefix: String, Sendable, CaseIterable {
        /// `x509_hash:` + base64url(SHA-256(leaf DER)) (HAIP's choice; the default).
        case x509Hash = "x509_hash"
        /// `x509_san_dns:` + the leaf's first dNSName SAN.
        case x509SanDNS = "x509_san_dns"
    }

    /// The DC API protocol identifier: `openid4vp-v1-unsigned`, or `openid4vp-v1-signed` with a reader identity.
    public let protocolIdentifier: String
    /// The DC API request's `data`.
    public let data: JSONValue
    /// What the server keeps to verify the answer; store it server-side and use it once.
    public let session: OpenID4VPSession

    /// The COSE algorithms listed in `vp_formats_supported.mso_mdoc` (ES256/384/512 and the fully-specified ESP256).
    static let algorithmValues: [Int] = [-7, -35, -36, -9]

    /// Creates a request for `request` from the page at `origin`: a fresh nonce, a DCQL query and, for `dc_api.jwt`,
    /// a fresh P-256 encryption key; signed with `reader` when given, with a client identifier of `clientIDPrefix`.
    ///
    /// `trustedAuthorities` (docType → key identifiers, see `IssuerIdentifiers.narrowed(_:in:)`) become each credential
    /// query's `trusted_authorities: [{"type": "aki", "values": [base64url…]}]` (§6.1.1).
    ///
    /// Under `profile` `.haip` (docs/formats.md §7.7) the request is always signed, with an `x509_hash` client
    /// identifier and an `x5c` without the trust anchor, and asks for `dc_api.jwt`.
    ///
    /// Throws `input.malformed` for an origin that is not a serialized web origin, an empty request, a reader
    /// certificate without the dNSName `x509_san_dns` needs, or settings the profile refuses
    /// (`OpenID4VPProfile.requestProblems`).
    public static func create(origin: String, request: RequestPolicy, responseMode: OpenID4VPSession.ResponseMode = .dcAPIJWT,
                              reader: ReaderIdentity? = nil, clientIDPrefix: ClientIDPrefix = .x509Hash,
                              trustedAuthorities: [String: [[UInt8]]] = [:], profile: OpenID4VPProfile = .default) throws(VerificationError)
        -> OpenID4VPWebRequest {
        let problems = profile.requestProblems(reader: reader, responseMode: responseMode, clientIDPrefix: clientIDPrefix)
        guard problems.isEmpty else { throw VerificationError(.inputMalformed, problems.joined(separator: "; ")) }
        try WebOrigin.validate(origin)
        let queries = try DCQLQuery(request, trustedAuthorities: trustedAuthorities)
        let nonce = Base64URL.encode(SecureRandom.bytes(32))
        var encryptionKey: PrivateKey?
        var jwk: EncryptionJWK?
        if responseMode == .dcAPIJWT {
            do {
                let key = try PrivateKey.generate(.p256)
                encryptionKey = key
                jwk = try EncryptionJWK(publicKey: key.publicKey, kid: Base64URL.encode(SecureRandom.bytes(12)))
            } catch let error as VerificationError {
                throw error
            } catch {
                throw VerificationError(.inputMalformed, "cannot generate a P-256 encryption key: \(error)")
            }
        }
        var parameters: [(String, JSONValue)] = [
            ("response_type", .string("vp_token")),
            ("response_mode", .string(responseMode.rawValue)),
            ("nonce", .string(nonce)),
            ("dcql_query", queries.json),
            ("client_metadata", clientMetadata(jwk)),
        ]
        let session = OpenID4VPSession(origin: origin, nonce: nonce, responseMode: responseMode, encryptionKey: encryptionKey, jwk: jwk,
                                       queryIDs: queries.ids, request: request, profile: profile)
        guard let reader else {
            return OpenID4VPWebRequest(protocolIdentifier: "openid4vp-v1-unsigned", data: .object(parameters), session: session)
        }
        let clientID = try clientIdentifier(reader, prefix: clientIDPrefix)
        parameters = [("client_id", .string(clientID)), ("expected_origins", .array([.string(origin)]))] + parameters
        let chain = profile == .haip ? OpenID4VPProfile.haipChain(reader) : reader.certificates
        let jws = try reader.signedRequestObject(JSONValue.object(parameters).serialized(), chain: chain)
        return OpenID4VPWebRequest(protocolIdentifier: "openid4vp-v1-signed", data: .object([("request", .string(jws))]), session: session)
    }

    static func clientMetadata(_ jwk: EncryptionJWK?) -> JSONValue {
        let algorithms = JSONValue.array(algorithmValues.map { .int($0) })
        var members: [(String, JSONValue)] = []
        if let jwk {
            members.append(("jwks", .object([("keys", .array([jwk.json]))])))
            members.append(("encrypted_response_enc_values_supported", .array(OpenID4VPSession.defaultEncryptionValues.map(JSONValue.string))))
        }
        members.append(("vp_formats_supported", .object([
            ("mso_mdoc", .object([("issuerauth_alg_values", algorithms), ("deviceauth_alg_values", algorithms)])),
        ])))
        return .object(members)
    }

    /// OpenID4VP 1.0 §5.9.3: the prefixed client identifier from the reader's leaf certificate.
    static func clientIdentifier(_ reader: ReaderIdentity, prefix: ClientIDPrefix) throws(VerificationError) -> String {
        let leaf = reader.certificates[0]
        switch prefix {
        case .x509Hash:
            return "x509_hash:" + Base64URL.encode(Digest.hash(.sha256, leaf.derEncoded))
        case .x509SanDNS:
            for name in leaf.subjectAlternativeNames {
                if case .dns(let dns) = name { return "x509_san_dns:" + dns }
            }
            throw VerificationError(.inputMalformed, "x509_san_dns needs a dNSName in the reader certificate's subjectAltName")
        }
    }
}

/// The `dcql_query` for a request policy (OpenID4VP 1.0 §6, B.2.3): one `mso_mdoc` credential query per docType,
/// `claims` with `path: [namespace, element]` and `intent_to_retain`, and `trusted_authorities` (type `aki`, §6.1.1)
/// for a docType `trustedAuthorities` names.
struct DCQLQuery {
    let json: JSONValue
    let ids: [String]

    init(_ request: RequestPolicy, trustedAuthorities: [String: [[UInt8]]] = [:]) throws(VerificationError) {
        guard !request.documents.isEmpty,
              request.documents.allSatisfy({ !$0.docType.isEmpty && $0.nameSpaces.values.contains { !$0.isEmpty } })
        else {
            throw VerificationError(.inputMalformed, "the request must name at least one docType with at least one element")
        }
        var ids: [String] = []
        var credentials: [JSONValue] = []
        for document in request.documents {
            // Credential query ids are [A-Za-z0-9_-]+ and unique in the request (§6.1).
            var id = String(document.docType.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
            if ids.contains(id) { id += "_\(ids.count)" }
            ids.append(id)
            let claims: [JSONValue] = document.nameSpaces.sorted { $0.key < $1.key }.flatMap { nameSpace, elements in
                elements.sorted { $0.key < $1.key }.map { element, retain in
                    JSONValue.object([("path", .array([.string(nameSpace), .string(element)])), ("intent_to_retain", .bool(retain))])
                }
            }
            var members: [(String, JSONValue)] = [
                ("id", .string(id)), ("format", .string("mso_mdoc")),
                ("meta", .object([("doctype_value", .string(document.docType))])), ("claims", .array(claims)),
            ]
            if let authorities = trustedAuthorities[document.docType], !authorities.isEmpty {
                members.append(("trusted_authorities", .array([.object([
                    ("type", .string("aki")), ("values", .array(authorities.map { .string(Base64URL.encode($0)) })),
                ])])))
            }
            credentials.append(.object(members))
        }
        self.ids = ids
        json = .object([("credentials", .array(credentials))])
    }
}
