import CryptoCore
import Foundation
import MdocModel
import MdocTrust

extension DocumentCheck {
    /// The MSO's `status` reference: the status list and the identifier list it names say the document is valid. Only
    /// an MSO whose issuer-side checks all passed is looked up (a fetching source then fetches each `uri`).
    static let msoStatus = DocumentCheck(.revocationStatus, needs: .mso, .trustedChain, .issuerSignature, stage: .chain) {
        run, mso, chain, _ in run.checkStatus(mso: mso, chain: chain)
    }
}

extension DocumentVerification {
    /// One mechanism of the MSO's `status`, looked up on its own report line.
    private enum StatusMechanism {
        case statusList(MSOStatus.Reference, index: UInt64)
        case identifierList(MSOStatus.Reference, id: [UInt8])

        var reference: MSOStatus.Reference {
            switch self {
            case .statusList(let reference, _), .identifierList(let reference, _): reference
            }
        }

        /// "status list" or "identifier list", for the report.
        var name: String {
            switch self {
            case .statusList: "status list"
            case .identifierList: "identifier list"
            }
        }

        /// "a status list" or "an identifier list".
        var article: String {
            switch self {
            case .statusList: "a status list"
            case .identifierList: "an identifier list"
            }
        }

        /// The `typ` a token for this mechanism must carry in its protected header.
        var tokenType: String {
            switch self {
            case .statusList: StatusToken.statusListType
            case .identifierList: StatusToken.identifierListType
            }
        }
    }

    /// Why a token is not used: its signer is outside this document's issuer (a failure under any policy but `off`),
    /// or its answer cannot be trusted now (unknown: a warning under `soft`, `revocation.unknown` under `hard`).
    private enum TokenProblem {
        case signerUntrusted(String)
        case unknown(String)
    }

    /// The checks that run before this one: issuer algorithm, x5chain, chain, profile, signature, certificate
    /// revocation, and the MSO's decoding, digest algorithm, docType, validity and signing time.
    static let issuerSideChecks: Set<String> = Set(DocumentCheck.order.prefix { $0 !== DocumentCheck.msoStatus }.map(\.id.rawValue))

    /// `chain`: the document signer's trusted chain; a status token must be signed under its anchor.
    mutating func checkStatus(mso: MobileSecurityObject, chain: [Certificate]) {
        let id = CheckID.revocationStatus
        guard !revocationIsOff(id) else { return }
        guard issuerSideFailures.isEmpty else {
            let failed = issuerSideFailures.map(\.rawValue).joined(separator: ", ")
            skip(id, "not looked up: \(failed) failed for this document, so its status reference is not followed")
            return
        }
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
        var mechanisms: [StatusMechanism] = []
        if let (reference, index) = status.statusList { mechanisms.append(.statusList(reference, index: index)) }
        if let (reference, identifier) = status.identifierList { mechanisms.append(.identifierList(reference, id: identifier)) }
        guard !mechanisms.isEmpty else {
            revocationUnknown(id, "the MSO's status names only mechanisms this verifier does not know: "
                              + status.unknownMechanisms.joined(separator: ", "))
            return
        }
        // Every mechanism is looked up (a fetching source notes each URI at once) and has its own line; any revoked
        // or suspended answer rejects.
        for mechanism in mechanisms {
            check(mechanism, id: id, anchor: chain.last)
        }
    }

    private mutating func check(_ mechanism: StatusMechanism, id: CheckID, anchor: Certificate?) {
        guard let source = context.options.revocationSource else {
            revocationUnknown(id, "no \(mechanism.name) was given for \(InputQuote.short(mechanism.reference.uri))")
            return
        }
        guard let (token, origin) = trustedToken(mechanism, source: source, id: id, anchor: anchor) else { return }
        switch (mechanism, token.content) {
        case (.statusList(_, let index), .statusList(let list)):
            guard let value = list.status(at: index) else {
                fail(id, .statusInvalid, "the MSO's index is outside the \(list.count)-entry status list from \(origin)")
                return
            }
            record(UInt64(value), id: id, origin: origin, list: mechanism.name)
        case (.identifierList(_, let identifier), .identifierList(let statuses)):
            record(statuses[identifier] ?? 0, id: id, origin: origin, list: mechanism.name)
        default:
            revocationUnknown(id, "the token from \(origin) is not \(mechanism.article)")
        }
    }

    /// 0 VALID, 1 INVALID (revoked), 2 SUSPENDED; anything else is application specific: a warning under `soft`,
    /// `revocation.unknown` under `hard` (this verifier cannot tell what it means).
    private mutating func record(_ value: UInt64, id: CheckID, origin: String, list: String) {
        switch value {
        case 0: pass(id, "valid per the \(list) from \(origin)")
        case 1: fail(id, .statusRevoked, "the \(list) from \(origin) marks the document revoked (status 1, INVALID)")
        case 2: fail(id, .statusSuspended, "the \(list) from \(origin) marks the document suspended (status 2)")
        default: revocationUnknown(id, "the \(list) from \(origin) gives the application-specific status \(value), which this verifier cannot interpret")
        }
    }

    /// The token at the mechanism's `uri`, trusted: signed under this document's anchor (or the certificate the MSO
    /// names), with the mechanism's `typ`, `sub` equal to the URI, issued no later than now and not expired. Nil after
    /// reporting why not.
    private mutating func trustedToken(_ mechanism: StatusMechanism, source: any RevocationSource,
                                       id: CheckID, anchor: Certificate?) -> (StatusToken, String)? {
        let reference = mechanism.reference
        var pinned: Certificate?
        if let der = reference.certificateDER {
            guard let certificate = try? context.cache.certificate(der: der) else {
                fail(id, .statusInvalid, "the certificate the MSO's \(mechanism.name) names is not a DER certificate")
                return nil
            }
            pinned = certificate
        }
        switch source.statusToken(uri: reference.uri, noting: context.revocationLookups) {
        case .failure(let unavailable):
            revocationUnknown(id, unavailable.reason)
            return nil
        case .success(let found):
            switch tokenTrustProblem(found.value, mechanism: mechanism, pinned: pinned, anchor: anchor) {
            case .signerUntrusted(let problem)?:
                fail(id, .statusSignerUntrusted, "the \(mechanism.name) token from \(found.origin) \(problem)")
                return nil
            case .unknown(let problem)?:
                revocationUnknown(id, "the \(mechanism.name) token from \(found.origin) \(problem)")
                return nil
            case nil:
                return (found.value, found.origin)
            }
        }
    }

    /// The signer first (no claim of an unauthenticated token is read), then `typ`, `sub`, `iat` and `exp`.
    private func tokenTrustProblem(_ token: StatusToken, mechanism: StatusMechanism, pinned: Certificate?, anchor: Certificate?) -> TokenProblem? {
        guard let chain = try? token.certificates(), let signer = chain.first else {
            return .unknown("carries no well-formed x5chain to verify its signer against")
        }
        let intermediates = Array(chain.dropFirst())
        // The anchor this document's signer chained to.
        guard let anchor else { return .unknown("has no document anchor to be checked against") }
        func chains(to root: Certificate) -> Bool {
            context.cache.validate(leaf: signer, intermediates: intermediates, at: context.time, pinnedAnchor: root).isTrusted
        }
        // The certificate the MSO names signed the top of the token's chain (or is its signer): the issuer vouches for it.
        guard chains(to: anchor) || pinned.map(chains(to:)) == true else {
            let named = pinned.map { " nor under the certificate the MSO's status names (\($0.subject))" } ?? ""
            return .signerUntrusted("is signed by \(signer.subject), which does not chain to \(anchor.subject), the anchor of this "
                                    + "document's signer\(named); a list signed under another issuer cannot decide this "
                                    + "document's status. Use the list this document's issuer publishes.")
        }
        guard let key = try? context.cache.publicKey(of: signer),
              context.cache.signatureVerifies(key: token.sha256Fingerprint + signer.sha256Fingerprint, { token.isSigned(by: key) })
        else {
            return .unknown("has a signature that does not verify with \(signer.subject)")
        }
        guard let type = token.type else {
            return .unknown("has no protected typ; a \(mechanism.name) token must be typed \(mechanism.tokenType)")
        }
        guard type == mechanism.tokenType else {
            return .unknown("has typ \(InputQuote.short(type)), not \(mechanism.tokenType)")
        }
        guard token.subject == mechanism.reference.uri else {
            return .unknown("is for \(InputQuote.short(token.subject)), not \(InputQuote.short(mechanism.reference.uri)) (sub mismatch)")
        }
        if let issued = token.issuedAt, issued > context.time + context.options.clockSkew {
            return .unknown("was issued at \(RFC3339.format(issued)), after the verification time \(RFC3339.format(context.time)) "
                            + "(beyond the clock skew allowed); a list from the future is not trusted")
        }
        if let expires = token.expires, expires <= context.time { return .unknown("expired \(RFC3339.format(expires))") }
        return nil
    }
}
