import CBOR
import CryptoCore
import MdocModel
import MdocTrust

extension DocumentCheck {
    /// Reads `x5chain` (label 33): one DER certificate as a bstr, or an array, leaf (document signer) first.
    /// It belongs in the unprotected header; a protected one is accepted too (ETSI issuers put it there).
    static let x5chain = DocumentCheck(.issuerX5chain, produces: .documentSigner, stage: .issuer) { $0.loadCertificateChain() }

    /// Path validation from the document signer to a trusted IACA at the verification time. The document signer
    /// must be issued by a certificate of the trust store (Annex B has the IACA issue it directly): certificates
    /// sent after it in x5chain never join the path.
    static let certificateChain = DocumentCheck(.issuerCertificateChain, needs: .documentSigner, produces: .trustedChain,
                                                stage: .chain) { $0.checkCertificateChain($1) }
}

extension DocumentVerification {
    mutating func loadCertificateChain() -> X5Chain? {
        let id = CheckID.issuerX5chain
        guard let node = document.issuerAuth.header(COSEHeaderLabel.x5chain) else {
            fail(id, .issuerChainUntrusted, "issuerAuth carries no x5chain (no document signer certificate)")
            return nil
        }
        var ders: [ArraySlice<UInt8>] = []
        if let single = node.bytes {
            ders = [single]
        } else if let array = node.array {
            for entry in array {
                guard let der = entry.bytes else {
                    fail(id, .responseMalformed, "x5chain array holds a non-bstr entry")
                    return nil
                }
                ders.append(der)
            }
        } else {
            fail(id, .responseMalformed, "x5chain is neither a bstr nor an array")
            return nil
        }
        guard !ders.isEmpty else {
            fail(id, .issuerChainUntrusted, "x5chain is empty")
            return nil
        }
        guard ders.count <= Self.maxX5chainCertificates else {
            fail(id, .responseMalformed, "x5chain holds \(ders.count) certificates; at most \(Self.maxX5chainCertificates)")
            return nil
        }
        if let repeated = ders.indices.first(where: { index in ders[..<index].contains { $0.elementsEqual(ders[index]) } }) {
            fail(id, .responseMalformed, "x5chain[\(repeated)] repeats an earlier certificate")
            return nil
        }
        var certificates: [Certificate] = []
        for (index, der) in ders.enumerated() {
            do {
                certificates.append(try context.cache.certificate(der: der))
            } catch {
                fail(id, .responseMalformed, "x5chain[\(index)] is not a DER X.509 certificate: \(error)")
                return nil
            }
        }
        pass(id, "\(certificates.count) certificate(s); document signer \(certificates[0].subject)")
        return X5Chain(signer: certificates[0], sent: Array(certificates.dropFirst()))
    }

    /// The path is trusted; the anchor it reached must be allowed to anchor this docType (a VICAL entry's scope), the
    /// list that vouches for it must be fresh, and an anchor that is not a self-signed root (a pinned intermediate or
    /// document signer) is reported. A stale list or a non-root anchor is a warning under the default profile and a
    /// failure under strict; a stale list whose provenance says `refusedWhenStale` fails under any profile, at use, so
    /// its anchors stop anchoring the second it turns stale, whether or not the trust was reloaded since. The detail
    /// names the anchor and the list it came from.
    private mutating func checkAnchor(_ chain: [Certificate]) -> [Certificate]? {
        let id = CheckID.issuerCertificateChain
        guard let anchor = chain.last else { return nil }
        let provenance = context.trustStore.provenance[anchor.sha256Fingerprint]
        if let scope = provenance?.docTypes, !scope.contains(document.docType) {
            fail(id, .issuerChainUntrusted, "the anchor \(anchor.subject) may anchor only \(scope.joined(separator: ", ")) "
                 + "(its trust-list entry), not \(InputQuote.short(document.docType))")
            return nil
        }
        let strict = context.options.profile == .strict
        var warnings: [String] = []
        if let next = provenance?.listNextUpdate, next < context.time {
            let detail = "the anchor \(anchor.subject) comes from \(provenance?.source ?? "a trust list") whose nextUpdate "
                + "\(RFC3339.format(next)) has passed: the list is stale"
            if provenance?.refusedWhenStale == true {
                fail(id, .vicalStale, detail + "; the operator refuses stale lists (vicalStalePolicy refuse): load a current list")
                return nil
            }
            if strict {
                fail(id, .vicalStale, detail + "; the strict profile asks for a current list")
                return nil
            }
            warnings.append(detail)
        }
        let source = provenance?.source.map { ", from \($0)" } ?? ""
        if !anchor.isSelfSigned {
            let detail = "anchored at \(anchor.subject), a pinned certificate that is not a self-signed root"
            if strict {
                fail(id, .issuerChainUntrusted, detail + "; the strict profile asks for an IACA root")
                return nil
            }
            warnings.append(detail)
        }
        let kind = anchor.isSelfSigned ? "self-signed root" : "pinned, not a self-signed root"
        pass(id, "document signer chains to \(anchor.subject) (\(kind)\(source))")
        for warning in warnings { warn(id, warning) }
        return chain
    }

    /// A document signer and the IACA is what issuers send; a few more leave room, thousands are an attack.
    static let maxX5chainCertificates = 8

    mutating func checkCertificateChain(_ x5chain: X5Chain) -> [Certificate]? {
        let id = CheckID.issuerCertificateChain
        let leaf = x5chain.signer
        guard !context.trustStore.isEmpty else {
            fail(id, .issuerChainUntrusted, "the trust store holds no IACA certificates")
            return nil
        }
        switch context.cache.validate(leaf: leaf, intermediates: [], at: context.time, store: context.trustStore) {
        case .trusted(let chain):
            return checkAnchor(chain)
        case .failed(let failure):
            let code: ErrorCode = (failure.reason == .expired || failure.reason == .notYetValid)
                ? .issuerCertificateExpired : .issuerChainUntrusted
            if let intermediate = x5chain.sent.first(where: { leaf.issuerMatchesSubject(of: $0) && !context.trustStore.anchors.contains($0) }) {
                fail(id, .issuerChainUntrusted, "the document signer is issued by \(intermediate.subject), a CA sent in x5chain that is not "
                     + "in the trust store; document signers must be issued by a trusted IACA (or a certificate the operator pinned)")
            } else {
                fail(id, code, failure.message)
            }
            return nil
        }
    }
}
