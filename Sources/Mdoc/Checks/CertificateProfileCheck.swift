import CryptoCore
import Foundation

extension DocumentCheck {
    /// The document signer (and the IACA it chains to) against the Annex B profile.
    static let certificateProfile = DocumentCheck(.issuerCertificateProfile, needs: [.documentSigner], stage: .chain) {
        $0.checkCertificateProfile()
    }
}

extension DocumentVerification {
    /// One Annex B rule broken by a certificate. `enforced` rules fail under every preset because
    /// security rests on them; the others warn under `.default` and fail under `.strict`.
    struct ProfileDeviation: Sendable {
        let rule: String
        let detail: String
        let enforced: Bool
    }

    mutating func checkCertificateProfile() {
        let id = CheckID.issuerCertificateProfile
        guard let signer = facts.documentSigner else { return }
        let root = facts.trustedChain.flatMap { $0.count > 1 ? $0.last : nil }
        let deviations = context.cache.profileDeviations(documentSigner: signer, root: root) {
            CertificateProfileRules.documentSigner(signer, root: root) + (root.map(CertificateProfileRules.iaca) ?? [])
        }
        guard !deviations.isEmpty else {
            pass(id, "document signer\(root == nil ? "" : " and IACA") follow the Annex B profile")
            return
        }
        for deviation in deviations {
            let detail = "[\(deviation.rule)] \(deviation.detail)"
            if deviation.enforced || context.options.profile == .strict {
                fail(id, .issuerCertificateProfile, detail)
            } else {
                warn(id, detail)
            }
        }
    }
}

/// The Annex B rules, as pure functions of the certificates.
enum CertificateProfileRules {
    typealias Deviation = DocumentVerification.ProfileDeviation

    static let mdlDocumentSignerEKU = "1.0.18013.5.1.2"
    static let anyExtendedKeyUsage = "2.5.29.37.0"
    static let forbiddenExtensions: [String: String] = [
        "2.5.29.33": "policyMappings", "2.5.29.30": "nameConstraints", "2.5.29.36": "policyConstraints",
        "2.5.29.54": "inhibitAnyPolicy", "2.5.29.46": "freshestCRL",
    ]

    enum OID {
        static let keyUsage = "2.5.29.15"
        static let extendedKeyUsage = "2.5.29.37"
        static let basicConstraints = "2.5.29.19"
        static let issuerAltName = "2.5.29.18"
    }

    static func isCritical(_ certificate: Certificate, _ oid: String) -> Bool {
        certificate.extensions.first { $0.oid == oid }?.isCritical == true
    }

    static func days(_ certificate: Certificate) -> Int {
        Int((certificate.notAfter.timeIntervalSince(certificate.notBefore) / 86_400).rounded(.down))
    }

    /// Table B.3 (document signer).
    static func documentSigner(_ ds: Certificate, root: Certificate?) -> [Deviation] {
        var out: [Deviation] = []
        // Enforced: a document signer must not be a CA, and its usages must not exclude document signing.
        if ds.basicConstraints?.isCA == true {
            out.append(Deviation(rule: "ds.not_ca", detail: "document signer is a CA certificate (basicConstraints CA=true)", enforced: true))
        }
        if let usage = ds.keyUsage, !usage.contains(.digitalSignature) {
            out.append(Deviation(rule: "ds.key_usage", detail: "document signer key usage lacks digitalSignature", enforced: true))
        }
        if let eku = ds.extendedKeyUsage, !eku.contains(mdlDocumentSignerEKU), !eku.contains(anyExtendedKeyUsage) {
            out.append(Deviation(rule: "ds.extended_key_usage",
                                 detail: "document signer extended key usage \(eku.joined(separator: ",")) excludes \(mdlDocumentSignerEKU)",
                                 enforced: true))
        }
        // Reported: the rest of Table B.3.
        if let usage = ds.keyUsage {
            if usage != [.digitalSignature] {
                out.append(Deviation(rule: "ds.key_usage_exact", detail: "key usage should be exactly digitalSignature", enforced: false))
            }
            if !isCritical(ds, OID.keyUsage) {
                out.append(Deviation(rule: "ds.key_usage_critical", detail: "key usage extension is not critical", enforced: false))
            }
        } else {
            out.append(Deviation(rule: "ds.key_usage_present", detail: "no key usage extension", enforced: false))
        }
        if let eku = ds.extendedKeyUsage {
            if eku != [mdlDocumentSignerEKU] {
                out.append(Deviation(rule: "ds.extended_key_usage_exact", detail: "extended key usage should be exactly \(mdlDocumentSignerEKU)", enforced: false))
            }
            if !isCritical(ds, OID.extendedKeyUsage) {
                out.append(Deviation(rule: "ds.extended_key_usage_critical", detail: "extended key usage extension is not critical", enforced: false))
            }
        } else {
            out.append(Deviation(rule: "ds.extended_key_usage_present", detail: "no extended key usage \(mdlDocumentSignerEKU)", enforced: false))
        }
        if days(ds) > 457 {
            out.append(Deviation(rule: "ds.validity_period", detail: "validity is \(days(ds)) days; at most 457", enforced: false))
        }
        if ds.subjectKeyIdentifier == nil {
            out.append(Deviation(rule: "ds.subject_key_identifier", detail: "no subject key identifier", enforced: false))
        }
        if let root {
            if ds.authorityKeyIdentifier == nil || ds.authorityKeyIdentifier != root.subjectKeyIdentifier {
                out.append(Deviation(rule: "ds.authority_key_identifier", detail: "authority key identifier is missing or differs from the IACA's subject key identifier", enforced: false))
            }
            if let dsCountry = ds.subject.countryName, let rootCountry = root.subject.countryName, dsCountry != rootCountry {
                out.append(Deviation(rule: "ds.country", detail: "countryName \(dsCountry) differs from the IACA's \(rootCountry)", enforced: false))
            }
            if let rootState = root.subject.stateOrProvinceName, ds.subject.stateOrProvinceName != rootState {
                out.append(Deviation(rule: "ds.state", detail: "stateOrProvinceName differs from the IACA's \(rootState)", enforced: false))
            }
        }
        if ds.subject.countryName == nil {
            out.append(Deviation(rule: "ds.country_present", detail: "subject has no countryName", enforced: false))
        }
        out += common(ds, role: "ds")
        return out
    }

    /// Table B.1 (IACA root).
    static func iaca(_ root: Certificate) -> [Deviation] {
        var out: [Deviation] = []
        if root.basicConstraints?.isCA != true {
            out.append(Deviation(rule: "iaca.is_ca", detail: "IACA is not a CA certificate", enforced: true))
        } else {
            if !isCritical(root, OID.basicConstraints) {
                out.append(Deviation(rule: "iaca.basic_constraints_critical", detail: "basic constraints extension is not critical", enforced: false))
            }
            if root.basicConstraints?.pathLengthConstraint != 0 {
                out.append(Deviation(rule: "iaca.path_length", detail: "pathLenConstraint should be 0", enforced: false))
            }
        }
        if let usage = root.keyUsage {
            if usage != [.keyCertSign, .cRLSign] {
                out.append(Deviation(rule: "iaca.key_usage_exact", detail: "key usage should be exactly keyCertSign and cRLSign", enforced: false))
            }
            if !isCritical(root, OID.keyUsage) {
                out.append(Deviation(rule: "iaca.key_usage_critical", detail: "key usage extension is not critical", enforced: false))
            }
        } else {
            out.append(Deviation(rule: "iaca.key_usage_present", detail: "no key usage extension", enforced: false))
        }
        if days(root) > 20 * 366 {
            out.append(Deviation(rule: "iaca.validity_period", detail: "validity is \(days(root)) days; at most 20 years", enforced: false))
        }
        if root.subjectKeyIdentifier == nil {
            out.append(Deviation(rule: "iaca.subject_key_identifier", detail: "no subject key identifier", enforced: false))
        }
        if root.subject.countryName == nil {
            out.append(Deviation(rule: "iaca.country_present", detail: "subject has no countryName", enforced: false))
        }
        if root.issuerAlternativeNames.isEmpty {
            out.append(Deviation(rule: "iaca.issuer_alternative_name", detail: "no issuer alternative name", enforced: false))
        }
        out += common(root, role: "iaca")
        return out
    }

    /// Rules shared by both tables: CRL distribution point, forbidden extensions, serial number.
    static func common(_ certificate: Certificate, role: String) -> [Deviation] {
        var out: [Deviation] = []
        let points = certificate.crlDistributionPoints
        if points.isEmpty {
            out.append(Deviation(rule: "\(role).crl_distribution_point", detail: "no CRL distribution point", enforced: false))
        } else {
            let allURIs = points.allSatisfy { point in
                !point.fullNames.isEmpty && point.fullNames.allSatisfy { if case .uri = $0 { return true } else { return false } }
            }
            if !allURIs || points.contains(where: { $0.hasReasons || $0.hasCRLIssuer }) {
                out.append(Deviation(rule: "\(role).crl_distribution_point", detail: "CRL distribution point must be a URI without reasons or cRLIssuer", enforced: false))
            }
        }
        for ext in certificate.extensions {
            if let name = forbiddenExtensions[ext.oid] {
                out.append(Deviation(rule: "\(role).forbidden_extension", detail: "carries \(name), which Annex B forbids", enforced: false))
            }
        }
        if !certificate.isSerialNumberPositive || certificate.serialNumberOctetCount > 20 {
            out.append(Deviation(rule: "\(role).serial_number", detail: "serial number must be positive and at most 20 octets", enforced: false))
        }
        return out
    }
}
