import CBOR
import CryptoCore
import Foundation
import MdocModel

/// The rules an OpenID4VP request is made and its answer checked under (docs/formats.md §7.7).
public enum OpenID4VPProfile: String, Sendable, CaseIterable {
    /// OpenID4VP 1.0, with the deviations of docs/formats.md §7.6 accepted.
    case `default`
    /// HAIP 1.0 (OpenID4VC High Assurance Interoperability Profile) for an mdoc verifier over the DC API: a signed
    /// request with an `x509_hash` client identifier, `dc_api.jwt` only, and an answer that follows §5 and §5.3.1
    /// (`haip.encryption`, `haip.presentation`).
    case haip

    /// The `enc` values a HAIP verifier lists in `encrypted_response_enc_values_supported`: both (HAIP 1.0 §5).
    static let haipEncryptionValues = ["A128GCM", "A256GCM"]

    /// Why a request cannot be made under this profile with these settings, one message per problem; empty when it
    /// can (always, for `default`). Each message names the setting to change.
    public func requestProblems(reader: ReaderIdentity?, responseMode: OpenID4VPSession.ResponseMode,
                                clientIDPrefix: OpenID4VPWebRequest.ClientIDPrefix = .x509Hash) -> [String] {
        guard self == .haip else { return [] }
        var problems: [String] = []
        if responseMode != .dcAPIJWT {
            problems.append("HAIP 1.0 §5.2 makes the verifier use the response mode dc_api.jwt; the response mode is \(responseMode.rawValue) "
                            + "(server: openid4vpResponseMode; CLI: --response-mode)")
        }
        if let reader {
            if clientIDPrefix != .x509Hash {
                problems.append("HAIP 1.0 §5 makes signed requests use the client identifier prefix x509_hash; \(clientIDPrefix.rawValue) was "
                                + "asked for (CLI: --client-id-prefix)")
            }
            if reader.certificates[0].isSelfSigned {
                problems.append("HAIP 1.0 §5: the certificate signing the request must not be self-signed; the reader certificate "
                                + "\(reader.certificates[0].subject) is (server: readerCertificates; CLI: --reader-cert)")
            }
        } else {
            problems.append("the HAIP profile signs every request with an x509_hash client identifier (HAIP 1.0 §5), so it needs a reader "
                            + "identity: set readerKey and readerCertificates (server) or --reader-key and --reader-cert (CLI)")
        }
        return problems
    }

    /// The `x5c` of a HAIP request object: the reader chain without the trust anchor (HAIP 1.0 §5), i.e. without
    /// its self-signed certificates.
    static func haipChain(_ reader: ReaderIdentity) -> [Certificate] {
        reader.certificates.filter { !$0.isSelfSigned }
    }
}

/// The HAIP profile's checks on the answer (docs/formats.md §7.7), each a report line; only for sessions made under
/// `OpenID4VPProfile.haip`.
extension OpenID4VPAdapter {
    /// A plain answer: HAIP 1.0 §5.2 has the verifier use `dc_api.jwt` only.
    func refuseHAIPPlainAnswer(in run: inout PipelineRun) {
        run.log.fail(.haipEncryption, .haipEncryptionRequired,
                     "the request was made under the HAIP profile, which accepts only an encrypted response (dc_api.jwt, HAIP 1.0 §5.2); "
                     + "a plain vp_token (dc_api) is refused: the wallet must answer with a JWE")
    }

    /// The JWE header against HAIP 1.0 §5: `alg` ECDH-ES (the `epk` is P-256, checked when parsed), `enc` A128GCM or
    /// A256GCM, and a `kid` (OpenID4VP 1.0 §8.3, since the request's key has one).
    func checkHAIPEncryption(_ jwe: CompactJWE, in run: inout PipelineRun) -> Bool {
        guard jwe.algorithm == "ECDH-ES" else {
            run.log.fail(.haipEncryption, .haipAlgorithmNotAllowed,
                         "`alg` \(InputQuote.short(jwe.algorithm)) is not ECDH-ES, the key agreement HAIP 1.0 §5 mandates")
            return false
        }
        guard OpenID4VPProfile.haipEncryptionValues.contains(jwe.encryption) else {
            run.log.fail(.haipEncryption, .haipEncryptionNotAllowed,
                         "`enc` \(InputQuote.short(jwe.encryption)) is neither A128GCM nor A256GCM, the values HAIP 1.0 §5 allows")
            return false
        }
        guard jwe.keyID != nil else {
            run.log.fail(.haipEncryption, .haipKeyIDRequired,
                         "the JWE has no `kid`; OpenID4VP 1.0 §8.3, mandatory under HAIP 1.0 §5, requires the kid of the request's key")
            return false
        }
        run.log.pass(.haipEncryption, "dc_api.jwt, ECDH-ES on P-256, \(jwe.encryption), kid present")
        return true
    }

    /// The `vp_token`'s shape against HAIP 1.0 §5.3.1 and §5: each member an array (the DCQL response) holding one
    /// DeviceResponse. A `vp_token` that is not an object is left to `vp_token.structure`.
    func checkHAIPPresentations(_ payload: JSONValue, in run: inout PipelineRun) -> Bool {
        guard let token = payload["vp_token"]?.members else { return true }
        for (id, value) in token.sorted(by: { $0.0 < $1.0 }) {
            if value.string != nil {
                run.log.fail(.haipPresentation, .haipPresentationNotArray,
                             "`vp_token.\(InputQuote.short(id))` is a bare string (the pre-1.0 shape); HAIP 1.0 §5 requires the DCQL "
                             + "response of OpenID4VP 1.0 §8.1, an array of presentations")
                return false
            }
            if let array = value.array, array.count > 1 {
                run.log.fail(.haipPresentation, .haipDeviceResponsesPerQuery,
                             "`vp_token.\(InputQuote.short(id))` holds \(array.count) DeviceResponses; HAIP 1.0 §5.3.1 returns each mdoc "
                             + "in its own DeviceResponse, matching its own credential query")
                return false
            }
        }
        return true
    }

    /// Each DeviceResponse holds at most one mdoc (HAIP 1.0 §5.3.1), counted without parsing it (the mdoc checks parse it
    /// once, and report one that does not parse).
    func checkHAIPDocuments(_ answers: Zip2Sequence<[String], [CBORItem]>, in run: inout PipelineRun) -> Bool {
        for (queryID, item) in answers {
            guard let count = item["documents"]?.array?.count, count > 1 else { continue }
            run.log.fail(.haipPresentation, .haipDocumentsPerDeviceResponse,
                         "the DeviceResponse for credential query \(InputQuote.short(queryID)) holds \(count) mdocs; "
                         + "HAIP 1.0 §5.3.1 returns each mdoc in a separate DeviceResponse")
            return false
        }
        run.log.pass(.haipPresentation, "each credential query answered with an array of one DeviceResponse holding one mdoc")
        return true
    }
}
