import CryptoCore
import Foundation
import MdocModel
import MdocTrust

extension DocumentCheck {
    /// The document signer (and the IACA it chains to) against the Annex B profile.
    static let certificateProfile = DocumentCheck(.issuerCertificateProfile, needs: .documentSigner, uses: .trustedChain, stage: .chain) {
        $0.checkCertificateProfile(signer: $1.signer, trustedChain: $2)
    }
}

extension DocumentVerification {
    /// `trustedChain`: when the chain check established one, its root is checked too.
    mutating func checkCertificateProfile(signer: Certificate, trustedChain: [Certificate]?) {
        let id = CheckID.issuerCertificateProfile
        let root = trustedChain.flatMap { $0.count > 1 ? $0.last : nil }
        let deviations = context.cache.profileDeviations(documentSigner: signer, root: root) {
            AnnexBRule.deviations(documentSigner: signer, iaca: root)
        }
        guard !deviations.isEmpty else {
            pass(id, "document signer\(root == nil ? "" : " and IACA") follow the Annex B profile")
            return
        }
        for deviation in deviations {
            if deviation.enforced || context.options.profile == .strict {
                fail(id, .issuerCertificateProfile, deviation.line)
            } else {
                warn(id, deviation.line)
            }
        }
    }
}
