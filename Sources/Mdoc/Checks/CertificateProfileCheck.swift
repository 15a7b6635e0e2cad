import CryptoCore
import Foundation

extension DocumentCheck {
    /// The document signer (and the IACA it chains to) against the Annex B profile.
    static let certificateProfile = DocumentCheck(.issuerCertificateProfile, needs: [.documentSigner], stage: .chain) {
        $0.checkCertificateProfile()
    }
}

extension DocumentVerification {
    mutating func checkCertificateProfile() {
        let id = CheckID.issuerCertificateProfile
        guard let signer = facts.documentSigner else { return }
        let root = facts.trustedChain.flatMap { $0.count > 1 ? $0.last : nil }
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
