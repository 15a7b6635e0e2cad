import CryptoCore

extension DocumentVerification {
    static let x5chainClause = "ISO/IEC 18013-5 §9.1.2.4; RFC 9360 §2"
    static let chainClause = "ISO/IEC 18013-5 §9.3.3, Annex B"

    /// Reads `x5chain` (label 33): one DER certificate as a bstr, or an array, leaf (document signer) first.
    /// It belongs in the unprotected header; a protected one is accepted too (ETSI issuers put it there).
    mutating func loadCertificateChain() {
        let id = "issuer.x5chain"
        guard let node = document.issuerAuth.header(COSEHeaderLabel.x5chain) else {
            fail(id, .issuerChainUntrusted, "issuerAuth carries no x5chain (no document signer certificate)", clause: Self.x5chainClause)
            return
        }
        var ders: [ArraySlice<UInt8>] = []
        if let single = node.bytes {
            ders = [single]
        } else if let array = node.array {
            for entry in array {
                guard let der = entry.bytes else {
                    fail(id, .responseMalformed, "x5chain array holds a non-bstr entry", clause: Self.x5chainClause)
                    return
                }
                ders.append(der)
            }
        } else {
            fail(id, .responseMalformed, "x5chain is neither a bstr nor an array", clause: Self.x5chainClause)
            return
        }
        guard !ders.isEmpty else {
            fail(id, .issuerChainUntrusted, "x5chain is empty", clause: Self.x5chainClause)
            return
        }
        do {
            let certificates = try ders.map { try context.cache.certificate(der: $0) }
            documentSigner = certificates[0]
            intermediates = Array(certificates.dropFirst())
            pass(id, "\(certificates.count) certificate(s); document signer \(certificates[0].subject)", clause: Self.x5chainClause)
        } catch {
            fail(id, .issuerChainUntrusted, "x5chain holds a certificate that does not parse: \(error)", clause: Self.x5chainClause)
        }
    }

    /// Path validation from the document signer to a trusted IACA at the verification time.
    mutating func checkCertificateChain() {
        let id = "issuer.certificate_chain"
        guard let leaf = documentSigner else {
            skip(id, "no document signer certificate", clause: Self.chainClause)
            return
        }
        guard !context.trustStore.isEmpty else {
            fail(id, .issuerChainUntrusted, "the trust store holds no IACA certificates", clause: Self.chainClause)
            return
        }
        switch context.cache.validate(leaf: leaf, intermediates: intermediates, at: context.time, store: context.trustStore) {
        case .trusted(let chain):
            trustedChain = chain
            let root = chain.last.map { "\($0.subject)" } ?? "?"
            pass(id, "document signer chains to \(root)", clause: Self.chainClause)
        case .failed(let failure):
            let code: ErrorCode = (failure.reason == .expired || failure.reason == .notYetValid)
                ? .issuerCertificateExpired : .issuerChainUntrusted
            fail(id, code, failure.message, clause: Self.chainClause)
        }
    }
}
