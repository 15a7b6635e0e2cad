import ArgumentParser
import Foundation
import Mdoc
import Verifier

/// Options every `verify` format shares.
struct VerificationOptions: ParsableArguments {
    @Option(name: .customLong("trust"), help: "Trust anchor file or directory (PEM/DER, with its manifest.json scopes); repeatable. Default: the production bundle embedded in mdocverify.")
    var trust: [String] = []

    @Option(help: "Verification time, RFC 3339 (default: now).")
    var at: String?

    @Option(help: "JSON of what was requested: {\"documents\":[{\"docType\",\"nameSpaces\":{ns:{element:intentToRetain}}}]}")
    var request: String?

    @Option(help: "Certificate profile preset: default (security-relevant rules enforced, other Annex B deviations warn) or strict.")
    var profile: CertificateProfile = .default

    @Option(help: "When revocation status cannot be determined: off (no checks), soft (verify with a warning saying why) or hard (revocation.unknown). Revoked or suspended always rejects.")
    var revocation: RevocationPolicy = .soft

    @Option(name: .customLong("crl"), help: "CRL file for document signers (PEM or DER); repeatable.")
    var crls: [String] = []

    @Option(name: .customLong("status-list"), help: "Status list or identifier list token file (CWT, raw or hex), matched by its sub to the MSO's uri; repeatable.")
    var statusLists: [String] = []

    @Flag(help: "Print the report as JSON.")
    var json = false

    func configuration(testMode: Bool) throws -> VerifierConfiguration {
        var source: StaticRevocationSource?
        if !crls.isEmpty || !statusLists.isEmpty {
            do {
                source = try RevocationFiles.source(crls: crls, statusLists: statusLists)
            } catch {
                throw UsageFailure(error.message)
            }
        }
        return VerifierConfiguration(trustStore: try InputFiles.trustStore(trust), profile: profile, testMode: testMode,
                                     revocation: revocation, revocationSource: source)
    }
}

extension CertificateProfile: ExpressibleByArgument {}
extension RevocationPolicy: ExpressibleByArgument {}
