import CryptoCore

/// Table B.1: the IACA root. Only `iaca.is_ca` is enforced.
extension AnnexBRule {
    static let iacaIsCA = AnnexBRule("iaca.is_ca", enforced: true) { root, _ in
        root.basicConstraints?.isCA != true ? "IACA is not a CA certificate" : nil
    }
    static let iacaBasicConstraintsCritical = AnnexBRule("iaca.basic_constraints_critical") { root, _ in
        root.basicConstraints?.isCA == true && !S.isCritical(root, S.OID.basicConstraints)
            ? "basic constraints extension is not critical" : nil
    }
    static let iacaPathLength = AnnexBRule("iaca.path_length") { root, _ in
        root.basicConstraints?.isCA == true && root.basicConstraints?.pathLengthConstraint != 0 ? "pathLenConstraint should be 0" : nil
    }
    static let iacaKeyUsageExact = AnnexBRule("iaca.key_usage_exact") { root, _ in
        if let usage = root.keyUsage, usage != [.keyCertSign, .cRLSign] { return "key usage should be exactly keyCertSign and cRLSign" }
        return nil
    }
    static let iacaKeyUsageCritical = AnnexBRule("iaca.key_usage_critical") { root, _ in
        root.keyUsage != nil && !S.isCritical(root, S.OID.keyUsage) ? "key usage extension is not critical" : nil
    }
    static let iacaKeyUsagePresent = AnnexBRule("iaca.key_usage_present") { root, _ in
        root.keyUsage == nil ? "no key usage extension" : nil
    }
    static let iacaValidityPeriod = AnnexBRule("iaca.validity_period") { root, _ in
        S.days(root) > 20 * 366 ? "validity is \(S.days(root)) days; at most 20 years" : nil
    }
    static let iacaSubjectKeyIdentifier = AnnexBRule("iaca.subject_key_identifier") { root, _ in
        root.subjectKeyIdentifier == nil ? "no subject key identifier" : nil
    }
    static let iacaCountryPresent = AnnexBRule("iaca.country_present") { root, _ in
        root.subject.countryName == nil ? "subject has no countryName" : nil
    }
    static let iacaIssuerAlternativeName = AnnexBRule("iaca.issuer_alternative_name") { root, _ in
        root.issuerAlternativeNames.isEmpty ? "no issuer alternative name" : nil
    }

    /// Table B.1 in report order.
    package static let iacaRules: [AnnexBRule] = [
        iacaIsCA, iacaBasicConstraintsCritical, iacaPathLength, iacaKeyUsageExact, iacaKeyUsageCritical, iacaKeyUsagePresent,
        iacaValidityPeriod, iacaSubjectKeyIdentifier, iacaCountryPresent, iacaIssuerAlternativeName,
    ] + AnnexBSupport.commonRules(role: "iaca")
}
