import CryptoCore
import Foundation

/// One rule of the ISO/IEC 18013-5 Annex B certificate profile. `enforced` rules fail under every preset because
/// security rests on them; the others warn under `.default` and fail under `.strict`.
package struct AnnexBRule: Sendable {
    /// `ds.*` (Table B.3, document signer) or `iaca.*` (Table B.1), e.g. `ds.not_ca`.
    package let id: String
    package let enforced: Bool
    /// What the certificate breaks, one line per breach; empty when it follows the rule. The second argument is
    /// the IACA the document signer chains to (nil for IACA rules, or when no chain was established).
    let breaches: @Sendable (_ certificate: Certificate, _ iaca: Certificate?) -> [String]

    init(_ id: String, enforced: Bool = false, _ breaches: @escaping @Sendable (Certificate, Certificate?) -> [String]) {
        self.id = id
        self.enforced = enforced
        self.breaches = breaches
    }

    /// A rule with at most one breach.
    init(_ id: String, enforced: Bool = false, _ breach: @escaping @Sendable (Certificate, Certificate?) -> String?) {
        self.init(id, enforced: enforced) { certificate, iaca in breach(certificate, iaca).map { [$0] } ?? [] }
    }

    package func deviations(_ certificate: Certificate, iaca: Certificate? = nil) -> [AnnexBDeviation] {
        breaches(certificate, iaca).map { AnnexBDeviation(rule: id, detail: $0, enforced: enforced) }
    }

    /// Every deviation of a document signer and, when known, its IACA.
    package static func deviations(documentSigner: Certificate, iaca: Certificate?) -> [AnnexBDeviation] {
        documentSignerRules.flatMap { $0.deviations(documentSigner, iaca: iaca) }
            + (iaca.map { root in iacaRules.flatMap { $0.deviations(root) } } ?? [])
    }
}

/// One Annex B rule broken by a certificate.
package struct AnnexBDeviation: Sendable, Equatable {
    package let rule: String
    package let detail: String
    package let enforced: Bool
    /// `[rule] detail`, as the report's line says it; made once, as the certificate cache keeps deviations.
    package let line: String

    package init(rule: String, detail: String, enforced: Bool) {
        (self.rule, self.detail, self.enforced) = (rule, detail, enforced)
        line = "[\(rule)] \(detail)"
    }
}

/// Helpers the rules share.
enum AnnexBSupport {
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
    }

    static func isCritical(_ certificate: Certificate, _ oid: String) -> Bool {
        certificate.extensions.first { $0.oid == oid }?.isCritical == true
    }

    static func days(_ certificate: Certificate) -> Int {
        Int((certificate.notAfter.timeIntervalSince(certificate.notBefore) / 86_400).rounded(.down))
    }

    /// Rules both tables share (CRL distribution point, forbidden extensions, serial number), for `role` `ds` or `iaca`.
    static func commonRules(role: String) -> [AnnexBRule] {
        [
            AnnexBRule("\(role).crl_distribution_point") { certificate, _ in
                let points = certificate.crlDistributionPoints
                if points.isEmpty { return "no CRL distribution point" }
                let allURIs = points.allSatisfy { point in
                    !point.fullNames.isEmpty && point.fullNames.allSatisfy { if case .uri = $0 { return true } else { return false } }
                }
                return !allURIs || points.contains(where: { $0.hasReasons || $0.hasCRLIssuer })
                    ? "CRL distribution point must be a URI without reasons or cRLIssuer" : nil
            },
            AnnexBRule("\(role).forbidden_extension") { certificate, _ in
                certificate.extensions.compactMap { ext in
                    forbiddenExtensions[ext.oid].map { "carries \($0), which Annex B forbids" }
                }
            },
            AnnexBRule("\(role).serial_number") { certificate, _ in
                !certificate.isSerialNumberPositive || certificate.serialNumberOctetCount > 20
                    ? "serial number must be positive and at most 20 octets" : nil
            },
        ]
    }
}
