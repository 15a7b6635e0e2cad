import CryptoCore
import Foundation
import MdocModel

extension DocumentCheck {
    /// `validFrom ≤ now ≤ validUntil` (with the configured clock skew), `validFrom < validUntil`, `validFrom` not
    /// before `signed`.
    static let msoValidity = DocumentCheck(.msoValidity, needs: .mso, stage: .issuer) { $0.checkValidity(mso: $1) }

    /// `signed` inside the document signer's validity.
    static let msoSignedWithinCertificate = DocumentCheck(.msoSignedWithinCertificate, needs: .mso, .documentSigner, stage: .issuer) {
        $0.checkSignedWithinCertificate(mso: $1, signer: $2.signer)
    }
}

extension DocumentVerification {
    mutating func checkValidity(mso: MobileSecurityObject) {
        let info = mso.validityInfo
        let now = context.time
        let skew = context.options.clockSkew
        let id = CheckID.msoValidity
        if info.validFrom >= info.validUntil {
            fail(id, .msoMalformed, "validFrom \(info.validFromAt) is not before validUntil \(info.validUntilAt)")
        } else if info.validFrom < info.signed {
            fail(id, .msoMalformed, "validFrom \(info.validFromAt) is before signed \(info.signedAt)")
        } else if now + skew < info.validFrom {
            fail(id, .msoNotYetValid, "MSO is valid from \(info.validFromAt); verification time is \(RFC3339.format(now))")
        } else if now - skew > info.validUntil {
            fail(id, .msoExpired, "MSO expired \(info.validUntilAt); verification time is \(RFC3339.format(now))")
        } else {
            pass(id, "valid \(info.validFromAt) … \(info.validUntilAt)")
        }
    }

    mutating func checkSignedWithinCertificate(mso: MobileSecurityObject, signer: Certificate) {
        let info = mso.validityInfo
        if info.signed < signer.notBefore || info.signed > signer.notAfter {
            fail(.msoSignedWithinCertificate, .issuerCertificateExpired,
                 "MSO signed \(info.signedAt) outside the document signer's validity "
                    + "\(RFC3339.format(signer.notBefore)) … \(RFC3339.format(signer.notAfter))")
        } else {
            pass(.msoSignedWithinCertificate, "signed \(info.signedAt)")
        }
    }
}
