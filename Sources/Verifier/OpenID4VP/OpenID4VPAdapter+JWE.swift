import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTrust

/// The `dc_api.jwt` half of `OpenID4VPAdapter`: the compact JWE's checks, each a report line, in the order a wallet's
/// mistakes are best explained.
extension OpenID4VPAdapter {
    /// JWE structure, algorithms, recipient and decryption, each a report line; the decrypted JSON object. `opened` is
    /// the plaintext when this very text was already decrypted with the session's key; the other checks still run.
    func decrypt(_ text: String, session: OpenID4VPSession, opened: [UInt8]? = nil, in run: inout PipelineRun) -> JSONValue? {
        guard let jwe = parseJWE(text, in: &run),
              session.profile != .haip || checkHAIPEncryption(jwe, in: &run),
              checkAlgorithms(jwe, session: session, in: &run)
        else { return nil }
        guard let key = session.encryptionKey, let jwk = session.jwk else {
            run.log.fail(.jweRecipient, .jweKeyIDMismatch, "the stored request has no encryption key")
            return nil
        }
        guard let plaintext = plaintext(of: jwe, key: key, opened: opened, in: &run),
              // After decryption, so a header changed in transit is reported as what it is (the AAD no longer matches).
              checkKeyID(jwe, requested: jwk.kid, in: &run)
        else { return nil }
        return jsonObject(plaintext, in: &run)
    }

    private func parseJWE(_ text: String, in run: inout PipelineRun) -> CompactJWE? {
        do {
            let jwe = try CompactJWE(text)
            run.log.pass(.jweStructure, "compact JWE, \(jwe.ciphertextCount)-byte ciphertext")
            return jwe
        } catch {
            run.log.fail(.jweStructure, error.jweError.code, error.message)
            return nil
        }
    }

    /// `alg`, `enc`, `crit` and `zip`: only what the request offered and this verifier implements.
    private func checkAlgorithms(_ jwe: CompactJWE, session: OpenID4VPSession, in run: inout PipelineRun) -> Bool {
        guard jwe.algorithm == "ECDH-ES" else {
            run.log.fail(.jweAlgorithm, .jweAlgorithmUnsupported, "`alg` \(InputQuote.short(jwe.algorithm)) is not ECDH-ES (direct key agreement)")
            return false
        }
        guard session.encryptionValues.contains(jwe.encryption) else {
            run.log.fail(.jweAlgorithm, .jweEncryptionNotAllowed,
                         "`enc` \(InputQuote.short(jwe.encryption)) was not offered (\(session.encryptionValues.joined(separator: ", ")))")
            return false
        }
        guard jwe.critical.isEmpty else {
            run.log.fail(.jweAlgorithm, .jweAlgorithmUnsupported, "`crit` names header parameters this verifier does not process")
            return false
        }
        if let zip = jwe.compression, zip != "DEF" {
            run.log.fail(.jweAlgorithm, .jweCompressionUnsupported, "`zip` \(InputQuote.short(zip)) is not DEF")
            return false
        }
        run.log.pass(.jweAlgorithm, "ECDH-ES, \(jwe.encryption)" + (jwe.compression != nil ? ", zip DEF" : ""))
        return true
    }

    /// The decrypted plaintext, inflated (under the text ceiling) when `zip` is DEF.
    private func plaintext(of jwe: CompactJWE, key: PrivateKey, opened: [UInt8]?, in run: inout PipelineRun) -> [UInt8]? {
        var plaintext: [UInt8]
        do throws(VerificationError) {
            if let opened {
                plaintext = opened
            } else {
                plaintext = try run.timings.measure(.hpke) { () throws(VerificationError) in
                    do throws(JOSEError) { return try jwe.decrypt(with: key) } catch { throw error.jweError }
                }
            }
            if jwe.compression != nil {
                let limit = VerificationPipeline.inputLimit(run.limits, isText: true)
                do {
                    plaintext = try Zlib.inflate(plaintext, limit: limit, raw: true)
                } catch .tooLarge {
                    throw VerificationError(.jweDecryptionFailed, "the DEFLATE plaintext inflates past \(limit) bytes")
                } catch {
                    throw VerificationError(.jweDecryptionFailed, "the plaintext is not a DEFLATE stream")
                }
            }
        } catch {
            run.log.fail(.jweDecrypt, error.code, error.message)
            return nil
        }
        run.log.pass(.jweDecrypt, "\(plaintext.count)-byte plaintext (Concat KDF, \(jwe.encryption))")
        return plaintext
    }

    /// The JWE's `kid` against the request's key.
    private func checkKeyID(_ jwe: CompactJWE, requested: String, in run: inout PipelineRun) -> Bool {
        switch jwe.keyID {
        case requested?:
            run.log.pass(.jweRecipient, "kid matches the request's key")
        case nil:
            // Pre-1.0 wallets omit kid; with one key offered there is no doubt which one was used.
            run.log.warn(.jweRecipient, "the JWE has no kid; accepted because the request offered exactly one key")
        case let other?:
            run.log.fail(.jweRecipient, .jweKeyIDMismatch, "kid \(InputQuote.short(other)) is not the request's key")
            return false
        }
        return true
    }

    /// The plaintext as a JSON object whose member names are distinct within each object.
    private func jsonObject(_ plaintext: [UInt8], in run: inout PipelineRun) -> JSONValue? {
        let object: JSONValue
        do throws(VerificationError) {
            let repeatedQueryID: String?
            (object, repeatedQueryID) = try OpenID4VPResponse.object(plaintext, what: "the decrypted payload")
            if let repeatedQueryID { throw VerificationError(.vpTokenMalformed, OpenID4VPResponse.repeatedQueryMessage(repeatedQueryID)) }
        } catch {
            run.log.fail(.vpTokenStructure, .vpTokenMalformed, error.message)
            return nil
        }
        return object
    }
}
