import CryptoCore

/// Table B.3: the document signer certificate. The first three are enforced: a document signer must not be a CA,
/// and its usages must not exclude document signing.
extension AnnexBRule {
    typealias S = AnnexBSupport

    static let dsNotCA = AnnexBRule("ds.not_ca", enforced: true) { ds, _ in
        ds.basicConstraints?.isCA == true ? "document signer is a CA certificate (basicConstraints CA=true)" : nil
    }
    static let dsKeyUsage = AnnexBRule("ds.key_usage", enforced: true) { ds, _ in
        if let usage = ds.keyUsage, !usage.contains(.digitalSignature) { return "document signer key usage lacks digitalSignature" }
        return nil
    }
    static let dsExtendedKeyUsage = AnnexBRule("ds.extended_key_usage", enforced: true) { ds, _ in
        guard let eku = ds.extendedKeyUsage, !eku.contains(S.mdlDocumentSignerEKU), !eku.contains(S.anyExtendedKeyUsage) else { return nil }
        return "document signer extended key usage \(eku.joined(separator: ",")) excludes \(S.mdlDocumentSignerEKU)"
    }
    static let dsKeyUsageExact = AnnexBRule("ds.key_usage_exact") { ds, _ in
        if let usage = ds.keyUsage, usage != [.digitalSignature] { return "key usage should be exactly digitalSignature" }
        return nil
    }
    static let dsKeyUsageCritical = AnnexBRule("ds.key_usage_critical") { ds, _ in
        ds.keyUsage != nil && !S.isCritical(ds, S.OID.keyUsage) ? "key usage extension is not critical" : nil
    }
    static let dsKeyUsagePresent = AnnexBRule("ds.key_usage_present") { ds, _ in
        ds.keyUsage == nil ? "no key usage extension" : nil
    }
    static let dsExtendedKeyUsageExact = AnnexBRule("ds.extended_key_usage_exact") { ds, _ in
        if let eku = ds.extendedKeyUsage, eku != [S.mdlDocumentSignerEKU] { return "extended key usage should be exactly \(S.mdlDocumentSignerEKU)" }
        return nil
    }
    static let dsExtendedKeyUsageCritical = AnnexBRule("ds.extended_key_usage_critical") { ds, _ in
        ds.extendedKeyUsage != nil && !S.isCritical(ds, S.OID.extendedKeyUsage) ? "extended key usage extension is not critical" : nil
    }
    static let dsExtendedKeyUsagePresent = AnnexBRule("ds.extended_key_usage_present") { ds, _ in
        ds.extendedKeyUsage == nil ? "no extended key usage \(S.mdlDocumentSignerEKU)" : nil
    }
    static let dsValidityPeriod = AnnexBRule("ds.validity_period") { ds, _ in
        S.days(ds) > 457 ? "validity is \(S.days(ds)) days; at most 457" : nil
    }
    static let dsSubjectKeyIdentifier = AnnexBRule("ds.subject_key_identifier") { ds, _ in
        ds.subjectKeyIdentifier == nil ? "no subject key identifier" : nil
    }
    static let dsAuthorityKeyIdentifier = AnnexBRule("ds.authority_key_identifier") { ds, iaca in
        guard let iaca else { return nil }
        return ds.authorityKeyIdentifier == nil || ds.authorityKeyIdentifier != iaca.subjectKeyIdentifier
            ? "authority key identifier is missing or differs from the IACA's subject key identifier" : nil
    }
    static let dsCountry = AnnexBRule("ds.country") { ds, iaca in
        guard let dsCountry = ds.subject.countryName, let rootCountry = iaca?.subject.countryName, dsCountry != rootCountry else { return nil }
        return "countryName \(dsCountry) differs from the IACA's \(rootCountry)"
    }
    static let dsState = AnnexBRule("ds.state") { ds, iaca in
        guard let rootState = iaca?.subject.stateOrProvinceName, ds.subject.stateOrProvinceName != rootState else { return nil }
        return "stateOrProvinceName differs from the IACA's \(rootState)"
    }
    static let dsCountryPresent = AnnexBRule("ds.country_present") { ds, _ in
        ds.subject.countryName == nil ? "subject has no countryName" : nil
    }

    /// Table B.3 in report order.
    package static let documentSignerRules: [AnnexBRule] = [
        dsNotCA, dsKeyUsage, dsExtendedKeyUsage, dsKeyUsageExact, dsKeyUsageCritical, dsKeyUsagePresent,
        dsExtendedKeyUsageExact, dsExtendedKeyUsageCritical, dsExtendedKeyUsagePresent, dsValidityPeriod,
        dsSubjectKeyIdentifier, dsAuthorityKeyIdentifier, dsCountry, dsState, dsCountryPresent,
    ] + AnnexBSupport.commonRules(role: "ds")
}
