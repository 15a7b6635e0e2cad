import CryptoCore
import Foundation

extension DocumentCheck {
    /// The MSO's `status` reference: the status list or identifier list it names says the document is valid. Only an
    /// MSO the trusted document signer signed is looked up (a fetching source then fetches its `uri`).
    static let msoStatus = DocumentCheck(.revocationStatus, needs: [.mso, .trustedChain, .issuerSignature], stage: .chain) { $0.checkStatus() }
}

extension DocumentVerification {
    mutating func checkStatus() {
        let id = CheckID.revocationStatus
        guard let mso = facts.mso, !revocationIsOff(id) else { return }
        guard let node = mso.status else {
            revocationUnknown(id, "the MSO carries no status reference")
            return
        }
        let status: MSOStatus
        do {
            status = try MSOStatus(node)
        } catch {
            fail(id, error.code, error.message)
            return
        }
        guard status.statusList != nil || status.identifierList != nil else {
            revocationUnknown(id, "the MSO's status names only mechanisms this verifier does not know: "
                              + status.unknownMechanisms.joined(separator: ", "))
            return
        }
        guard let source = context.options.revocationSource else {
            revocationUnknown(id, "no status list was given for \(InputQuote.short((status.statusList?.reference ?? status.identifierList?.reference)?.uri ?? ""))")
            return
        }
        if let (reference, index) = status.statusList {
            guard let (token, origin) = trustedToken(reference, source: source, id: id) else { return }
            guard case .statusList(let list) = token.content else {
                revocationUnknown(id, "the token from \(origin) is not a status list")
                return
            }
            guard let value = list.status(at: index) else {
                fail(id, .statusInvalid, "the MSO's index is outside the \(list.count)-entry status list from \(origin)")
                return
            }
            record(UInt64(value), id: id, origin: origin, list: "status list")
        } else if let (reference, identifier) = status.identifierList {
            guard let (token, origin) = trustedToken(reference, source: source, id: id) else { return }
            guard case .identifierList(let statuses) = token.content else {
                revocationUnknown(id, "the token from \(origin) is not an identifier list")
                return
            }
            record(statuses[identifier] ?? 0, id: id, origin: origin, list: "identifier list")
        }
    }

    /// 0 VALID, 1 INVALID (revoked), 2 SUSPENDED; anything else is application specific and reported as a warning.
    private mutating func record(_ value: UInt64, id: CheckID, origin: String, list: String) {
        switch value {
        case 0: pass(id, "valid per the \(list) from \(origin)")
        case 1: fail(id, .statusRevoked, "the \(list) from \(origin) marks the document revoked (status 1, INVALID)")
        case 2: fail(id, .statusSuspended, "the \(list) from \(origin) marks the document suspended (status 2)")
        default: warn(id, "the \(list) from \(origin) gives the application-specific status \(value)")
        }
    }

    /// The token at `reference.uri`, trusted: signed by an x5chain that reaches the trust store (or the certificate
    /// the MSO names), `sub` equal to the URI, not expired. Nil after reporting why not.
    private mutating func trustedToken(_ reference: MSOStatus.Reference, source: any RevocationSource,
                                       id: CheckID) -> (StatusToken, String)? {
        var pinned: Certificate?
        if let der = reference.certificateDER {
            guard let certificate = try? context.cache.certificate(der: der) else {
                fail(id, .statusInvalid, "the certificate the MSO's status names is not a DER certificate")
                return nil
            }
            pinned = certificate
        }
        switch source.statusToken(uri: reference.uri) {
        case .failure(let unavailable):
            revocationUnknown(id, unavailable.reason)
            return nil
        case .success(let found):
            if let problem = tokenTrustProblem(found.value, reference: reference, pinned: pinned) {
                revocationUnknown(id, "the token from \(found.origin) \(problem)")
                return nil
            }
            return (found.value, found.origin)
        }
    }

    private func tokenTrustProblem(_ token: StatusToken, reference: MSOStatus.Reference, pinned: Certificate?) -> String? {
        if let type = token.type, type != StatusToken.statusListType, case .statusList = token.content {
            return "has typ \(InputQuote.short(type)), not \(StatusToken.statusListType)"
        }
        guard token.subject == reference.uri else {
            return "is for \(InputQuote.short(token.subject)), not \(InputQuote.short(reference.uri)) (sub mismatch)"
        }
        if let expires = token.expires, expires <= context.time { return "expired \(RFC3339.format(expires))" }
        guard let chain = try? token.certificates(), let signer = chain.first else {
            return "carries no x5chain to verify its signer against"
        }
        let intermediates = Array(chain.dropFirst())
        if let pinned {
            // The certificate the MSO names signed the top of the token's chain: it is the anchor of that chain.
            guard case .trusted = context.cache.validate(leaf: signer, intermediates: intermediates, at: context.time, pinnedAnchor: pinned)
            else { return "is not signed under the certificate the MSO names" }
        } else {
            guard case .trusted = context.cache.validate(leaf: signer, intermediates: intermediates, at: context.time,
                                                         store: context.trustStore)
            else { return "is signed by \(signer.subject), which does not chain to the trust store" }
        }
        guard let key = try? context.cache.publicKey(of: signer),
              context.cache.signatureVerifies(key: token.sha256Fingerprint + signer.sha256Fingerprint, { token.isSigned(by: key) })
        else {
            return "has a signature that does not verify with \(signer.subject)"
        }
        return nil
    }
}
