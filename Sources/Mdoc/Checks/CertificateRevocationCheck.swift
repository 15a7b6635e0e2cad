import CryptoCore
import Foundation
import MdocModel
import MdocTrust

extension DocumentCheck {
    /// The document signer (and any CA between it and the anchor) is not on a current CRL its issuer signed.
    static let certificateRevocation = DocumentCheck(.revocationCertificate, needs: .trustedChain, stage: .chain) {
        $0.checkCertificateRevocation(chain: $1)
    }
}

extension DocumentVerification {
    /// An undetermined status: a warning under `soft`, `revocation.unknown` under `hard`.
    mutating func revocationUnknown(_ id: CheckID, _ detail: String) {
        if context.options.revocation == .hard {
            fail(id, .revocationUnknown, detail + "; the hard revocation policy rejects an unknown status")
        } else {
            warn(id, "status unknown: " + detail)
        }
    }

    /// True (after a skip line) when the revocation policy is `off`.
    mutating func revocationIsOff(_ id: CheckID) -> Bool {
        guard context.options.revocation == .off else { return false }
        skip(id, "revocation checking is off")
        return true
    }

    mutating func checkCertificateRevocation(chain: [Certificate]) {
        let id = CheckID.revocationCertificate
        guard !revocationIsOff(id) else { return }
        guard chain.count > 1 else {
            skip(id, "the document signer is itself a pinned anchor; the operator vouches for it")
            return
        }
        guard let source = context.options.revocationSource else {
            revocationUnknown(id, "no CRL was given for \(chain[0].subject)")
            return
        }
        var findings: [String] = []
        for index in 0..<(chain.count - 1) {
            switch crlAnswer(for: chain[index], issuer: chain[index + 1], source: source) {
            case .notRevoked(let detail):
                findings.append(detail)
            case .revoked(let detail):
                fail(id, .issuerCertificateRevoked, detail)
                return
            case .unknown(let detail):
                revocationUnknown(id, detail)
                return
            }
        }
        pass(id, findings.joined(separator: "; "))
    }

    private enum CRLAnswer {
        case notRevoked(String), revoked(String), unknown(String)
    }

    /// RFC 5280 §6.3 reduced to what Annex B needs: a CRL of `issuer`, signed by it, current at the verification
    /// time, without critical extensions that narrow its scope; the newest such CRL decides.
    private func crlAnswer(for certificate: Certificate, issuer: Certificate, source: any RevocationSource) -> CRLAnswer {
        let time = context.time
        let named = source.crls(for: certificate, noting: context.revocationLookups).filter { $0.value.issuer == issuer.subject }
        guard !named.isEmpty else { return .unknown("no CRL from \(issuer.subject) was found for \(certificate.subject)") }
        let signed = named.filter { crl in
            context.cache.signatureVerifies(key: crl.value.sha256Fingerprint + issuer.sha256Fingerprint) { crl.value.isIssued(by: issuer) }
        }
        guard !signed.isEmpty else { return .unknown("the CRL from \(named[0].origin) is not signed by \(issuer.subject)") }
        let current = signed.filter { crl in
            crl.value.thisUpdate <= time && (crl.value.nextUpdate.map { time < $0 } ?? false) && crl.value.unsupportedCriticalExtension == nil
        }
        guard let newest = current.max(by: { $0.value.thisUpdate < $1.value.thisUpdate }) else {
            let crl = signed[0].value
            if let critical = crl.unsupportedCriticalExtension {
                return .unknown("the CRL from \(signed[0].origin) has the critical extension \(critical), which this verifier does not process")
            }
            if crl.thisUpdate > time { return .unknown("the CRL from \(signed[0].origin) is dated \(RFC3339.format(crl.thisUpdate)), after the verification time") }
            return .unknown("the CRL from \(signed[0].origin) is stale: nextUpdate \(crl.nextUpdate.map(RFC3339.format) ?? "absent")")
        }
        let crl = newest.value
        if let revoked = crl.revocationDate(of: certificate), revoked <= time {
            return .revoked("\(certificate.subject) is revoked since \(RFC3339.format(revoked)) (CRL from \(newest.origin), "
                            + "thisUpdate \(RFC3339.format(crl.thisUpdate)))")
        }
        return .notRevoked("\(certificate.subject) not revoked (CRL from \(newest.origin), thisUpdate \(RFC3339.format(crl.thisUpdate)), "
                           + "nextUpdate \(crl.nextUpdate.map(RFC3339.format) ?? "-"))")
    }
}
