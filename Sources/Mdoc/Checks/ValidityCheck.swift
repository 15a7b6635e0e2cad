import Foundation

extension DocumentVerification {
    static let validityClause = "ISO/IEC 18013-5 §9.1.2.4, §9.3.1"

    /// `validFrom ≤ now ≤ validUntil` (with the configured clock skew), `validFrom < validUntil`,
    /// `validFrom` not before `signed`, and `signed` inside the document signer's validity.
    mutating func checkValidity() {
        guard let mso else {
            skip("mso.validity", "no MSO", clause: Self.validityClause)
            return
        }
        let info = mso.validityInfo
        let now = context.time
        let skew = context.options.clockSkew
        if info.validFrom >= info.validUntil {
            fail("mso.validity", .msoMalformed,
                 "validFrom \(RFC3339.format(info.validFrom)) is not before validUntil \(RFC3339.format(info.validUntil))",
                 clause: Self.validityClause)
        } else if info.validFrom < info.signed {
            fail("mso.validity", .msoMalformed,
                 "validFrom \(RFC3339.format(info.validFrom)) is before signed \(RFC3339.format(info.signed))", clause: Self.validityClause)
        } else if now + skew < info.validFrom {
            fail("mso.validity", .msoNotYetValid,
                 "MSO is valid from \(RFC3339.format(info.validFrom)); verification time is \(RFC3339.format(now))",
                 clause: Self.validityClause)
        } else if now - skew > info.validUntil {
            fail("mso.validity", .msoExpired,
                 "MSO expired \(RFC3339.format(info.validUntil)); verification time is \(RFC3339.format(now))",
                 clause: Self.validityClause)
        } else {
            pass("mso.validity", "valid \(RFC3339.format(info.validFrom)) … \(RFC3339.format(info.validUntil))", clause: Self.validityClause)
        }

        guard let signer = documentSigner else {
            skip("mso.signed_within_certificate", "no document signer certificate", clause: Self.validityClause)
            return
        }
        if info.signed < signer.notBefore || info.signed > signer.notAfter {
            fail("mso.signed_within_certificate", .issuerCertificateExpired,
                 "MSO signed \(RFC3339.format(info.signed)) outside the document signer's validity "
                    + "\(RFC3339.format(signer.notBefore)) … \(RFC3339.format(signer.notAfter))",
                 clause: Self.validityClause)
        } else {
            pass("mso.signed_within_certificate", "signed \(RFC3339.format(info.signed))", clause: Self.validityClause)
        }
    }
}
