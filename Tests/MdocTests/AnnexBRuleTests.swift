import CryptoCore
import KitCertificates
import Foundation
@testable import Mdoc
@testable import MdocModel
@testable import MdocTrust
import Testing

/// One table per Annex B rule: a certificate that follows the rule and one that breaks it (built from a
/// compliant IACA and document signer with one change each).
@Suite("Annex B profile: one rule at a time")
struct AnnexBRuleTests {
    static let start = Date(timeIntervalSince1970: 1_780_000_000)
    static func key(_ label: String) throws -> PrivateKey {
        try PrivateKey.derived(fromSeed: Array("annex-b \(label)".utf8), curve: .p256)
    }

    static func iacaBuilder() throws -> CertificateBuilder {
        CertificateBuilder(
            subject: [("C", "US"), ("ST", "US-CA"), ("CN", "Annex B test IACA")], serialNumber: [0x41, 0x01],
            notBefore: start, notAfter: start.addingTimeInterval(10 * 365 * 86_400), publicKey: try key("iaca").publicKey,
            extensions: CertificateBuilder.iacaExtensions(issuerAlternativeNameURI: "https://iaca.example",
                                                          crlDistributionPointURI: "https://iaca.example/crl"))
    }

    static func dsBuilder() throws -> CertificateBuilder {
        CertificateBuilder(
            subject: [("C", "US"), ("ST", "US-CA"), ("CN", "Annex B test DS")], serialNumber: [0x42, 0x02],
            notBefore: start, notAfter: start.addingTimeInterval(365 * 86_400), publicKey: try key("ds").publicKey,
            extensions: CertificateBuilder.documentSignerExtensions(issuerAlternativeNameURI: "https://iaca.example",
                                                                    crlDistributionPointURI: "https://iaca.example/crl"))
    }

    static func iaca(_ change: (inout CertificateBuilder) -> Void = { _ in }) throws -> Certificate {
        var builder = try iacaBuilder()
        change(&builder)
        return try builder.sign(issuer: nil, issuerKey: try key("iaca"))
    }

    static func ds(_ change: (inout CertificateBuilder) -> Void = { _ in }) throws -> Certificate {
        var builder = try dsBuilder()
        change(&builder)
        return try builder.sign(issuer: try iaca(), issuerKey: try key("iaca"))
    }

    /// Replaces the extension the predicate picks (or drops it when `with` is nil).
    static func replace(_ builder: inout CertificateBuilder, _ pick: (CertificateBuilder.Extension) -> Bool,
                        with new: CertificateBuilder.Extension?) {
        builder.extensions = builder.extensions.compactMap { pick($0) ? new : $0 }
    }

    static func isKeyUsage(_ e: CertificateBuilder.Extension) -> Bool { if case .keyUsage = e { true } else { false } }
    static func isEKU(_ e: CertificateBuilder.Extension) -> Bool { if case .extendedKeyUsage = e { true } else { false } }
    static func isBasicConstraints(_ e: CertificateBuilder.Extension) -> Bool { if case .basicConstraints = e { true } else { false } }
    static func isSKI(_ e: CertificateBuilder.Extension) -> Bool { if case .subjectKeyIdentifier = e { true } else { false } }
    static func isAKI(_ e: CertificateBuilder.Extension) -> Bool { if case .authorityKeyIdentifier = e { true } else { false } }
    static func isCRL(_ e: CertificateBuilder.Extension) -> Bool { if case .crlDistributionPointURI = e { true } else { false } }
    static func isIssuerAlt(_ e: CertificateBuilder.Extension) -> Bool { if case .issuerAlternativeNameURI = e { true } else { false } }
    static let nameConstraints = CertificateBuilder.Extension.custom(oid: "2.5.29.30", critical: true, der: [0x30, 0x00])

    /// rule id → the change that breaks it, applied to the compliant document signer.
    static let documentSignerBreaches: [String: @Sendable (inout CertificateBuilder) -> Void] = [
        "ds.not_ca": { $0.extensions.append(.basicConstraints(isCA: true, pathLength: nil, critical: true)) },
        "ds.key_usage": { replace(&$0, isKeyUsage, with: .keyUsage(.keyAgreement, critical: true)) },
        "ds.extended_key_usage": { replace(&$0, isEKU, with: .extendedKeyUsage(["1.3.6.1.5.5.7.3.1"], critical: true)) },
        "ds.key_usage_exact": { replace(&$0, isKeyUsage, with: .keyUsage([.digitalSignature, .nonRepudiation], critical: true)) },
        "ds.key_usage_critical": { replace(&$0, isKeyUsage, with: .keyUsage(.digitalSignature, critical: false)) },
        "ds.key_usage_present": { replace(&$0, isKeyUsage, with: nil) },
        "ds.extended_key_usage_exact": {
            replace(&$0, isEKU, with: .extendedKeyUsage(["1.0.18013.5.1.2", "1.3.6.1.5.5.7.3.2"], critical: true))
        },
        "ds.extended_key_usage_critical": { replace(&$0, isEKU, with: .extendedKeyUsage(["1.0.18013.5.1.2"], critical: false)) },
        "ds.extended_key_usage_present": { replace(&$0, isEKU, with: nil) },
        "ds.validity_period": { $0.notAfter = start.addingTimeInterval(500 * 86_400) },
        "ds.subject_key_identifier": { replace(&$0, isSKI, with: nil) },
        "ds.authority_key_identifier": { replace(&$0, isAKI, with: nil) },
        "ds.country": { $0.subject = [("C", "CA"), ("ST", "US-CA"), ("CN", "Annex B test DS")] },
        "ds.state": { $0.subject = [("C", "US"), ("CN", "Annex B test DS")] },
        "ds.country_present": { $0.subject = [("ST", "US-CA"), ("CN", "Annex B test DS")] },
        "ds.crl_distribution_point": { replace(&$0, isCRL, with: nil) },
        "ds.forbidden_extension": { $0.extensions.append(nameConstraints) },
        "ds.serial_number": { $0.serialNumber = [UInt8](repeating: 0x42, count: 21) },
    ]

    /// rule id → the change that breaks it, applied to the compliant IACA.
    static let iacaBreaches: [String: @Sendable (inout CertificateBuilder) -> Void] = [
        "iaca.is_ca": { replace(&$0, isBasicConstraints, with: .basicConstraints(isCA: false, pathLength: nil, critical: true)) },
        "iaca.basic_constraints_critical": { replace(&$0, isBasicConstraints, with: .basicConstraints(isCA: true, pathLength: 0, critical: false)) },
        "iaca.path_length": { replace(&$0, isBasicConstraints, with: .basicConstraints(isCA: true, pathLength: nil, critical: true)) },
        "iaca.key_usage_exact": { replace(&$0, isKeyUsage, with: .keyUsage([.keyCertSign, .cRLSign, .digitalSignature], critical: true)) },
        "iaca.key_usage_critical": { replace(&$0, isKeyUsage, with: .keyUsage([.keyCertSign, .cRLSign], critical: false)) },
        "iaca.key_usage_present": { replace(&$0, isKeyUsage, with: nil) },
        "iaca.validity_period": { $0.notAfter = start.addingTimeInterval(21 * 366 * 86_400) },
        "iaca.subject_key_identifier": { replace(&$0, isSKI, with: nil) },
        "iaca.country_present": { $0.subject = [("ST", "US-CA"), ("CN", "Annex B test IACA")] },
        "iaca.issuer_alternative_name": { replace(&$0, isIssuerAlt, with: nil) },
        "iaca.crl_distribution_point": { replace(&$0, isCRL, with: nil) },
        "iaca.forbidden_extension": { $0.extensions.append(nameConstraints) },
        "iaca.serial_number": { $0.serialNumber = [UInt8](repeating: 0x41, count: 21) },
    ]

    @Test("the compliant IACA and document signer break no rule")
    func compliant() throws {
        #expect(AnnexBRule.deviations(documentSigner: try Self.ds(), iaca: try Self.iaca()).isEmpty)
    }

    @Test("every rule has a row in the tables, and every row names a rule")
    func tablesCoverTheRules() {
        #expect(Set(AnnexBRule.documentSignerRules.map(\.id)) == Set(Self.documentSignerBreaches.keys))
        #expect(Set(AnnexBRule.iacaRules.map(\.id)) == Set(Self.iacaBreaches.keys))
    }

    @Test("document signer (Table B.3): passes compliant, breaks with its change", arguments: AnnexBRule.documentSignerRules.map(\.id))
    func documentSignerRule(_ id: String) throws {
        let rule = try #require(AnnexBRule.documentSignerRules.first { $0.id == id })
        let breach = try #require(Self.documentSignerBreaches[id])
        let iaca = try Self.iaca()
        #expect(rule.deviations(try Self.ds(), iaca: iaca).isEmpty)
        let broken = rule.deviations(try Self.ds(breach), iaca: iaca)
        #expect(broken.count == 1 && broken.first?.rule == id, "\(broken)")
        // The change breaks this rule only, except where one fact necessarily breaks two (a missing extension
        // also has no criticality or exact value to check).
        let others = AnnexBRule.deviations(documentSigner: try Self.ds(breach), iaca: iaca).map(\.rule).filter { $0 != id }
        #expect(others.allSatisfy { Self.entangled[id]?.contains($0) == true }, "\(id) also broke \(others)")
    }

    @Test("IACA (Table B.1): passes compliant, breaks with its change", arguments: AnnexBRule.iacaRules.map(\.id))
    func iacaRule(_ id: String) throws {
        let rule = try #require(AnnexBRule.iacaRules.first { $0.id == id })
        let breach = try #require(Self.iacaBreaches[id])
        #expect(rule.deviations(try Self.iaca()).isEmpty)
        let broken = rule.deviations(try Self.iaca(breach))
        #expect(broken.count == 1 && broken.first?.rule == id, "\(broken)")
        let brokenIACA = try Self.iaca(breach)
        let others = AnnexBRule.iacaRules.flatMap { $0.deviations(brokenIACA) }.map(\.rule).filter { $0 != id }
        #expect(others.allSatisfy { Self.entangled[id]?.contains($0) == true }, "\(id) also broke \(others)")
    }

    /// Changes that necessarily break a second rule.
    static let entangled: [String: Set<String>] = [
        "ds.key_usage": ["ds.key_usage_exact"],
        "ds.extended_key_usage": ["ds.extended_key_usage_exact"],
        "ds.not_ca": [],
        "iaca.is_ca": ["iaca.path_length", "iaca.basic_constraints_critical"],
    ]

    @Test("only the rules security rests on are enforced")
    func enforced() {
        let enforced = (AnnexBRule.documentSignerRules + AnnexBRule.iacaRules).filter(\.enforced).map(\.id)
        #expect(enforced == ["ds.not_ca", "ds.key_usage", "ds.extended_key_usage", "iaca.is_ca"])
    }
}
