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

    @Flag(help: "Print the report as JSON.")
    var json = false

    func configuration(testMode: Bool) throws -> VerifierConfiguration {
        VerifierConfiguration(trustStore: try InputFiles.trustStore(trust), profile: profile, testMode: testMode)
    }
}

extension CertificateProfile: ExpressibleByArgument {}
