import ArgumentParser
import Foundation
import Mdoc
import MdocConformance
import MdocModel
import MdocTesting
import Verifier

/// `mdocverify conformance`: the conformance corpus (every kit fault and attack class per format, with the verdict
/// each needs) and a runner that points it at any verifier.
struct Conformance: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Generate the conformance corpus, or run it against a verifier and report what it wrongly accepts.",
        discussion: """
            `generate` writes every case (positive controls, every kit fault, attack classes) as plain files with a \
            manifest.json. `run` runs them against a command (any language, through a shim), against verify-server, \
            and reports wrongly accepted (critical), wrongly rejected, passed and not applicable cases.
            """,
        subcommands: [Generate.self, Run.self]
    )

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the conformance corpus: one folder per case and manifest.json.",
            discussion: """
                The committed corpus is `mdocverify conformance generate --out TestVectors/conformance` (the defaults: \
                time 2026-06-01T12:00:00Z, seed 38). The manifest is the same on every run; the files' bytes differ \
                (signatures and ephemeral keys are random), their keys, values and verdicts do not.
                """
        )

        @Option(help: "Directory to write the cases and manifest.json to (created if missing; existing case files are replaced).")
        var out: String

        @Option(help: "Verification time the cases are made for, RFC 3339 (default 2026-06-01T12:00:00Z).")
        var at: String?

        @Option(help: "Seed of the test PKI, keys and request values.")
        var seed: UInt64 = ConformanceCorpus.defaultSeed

        @Option(name: .customLong("format"), help: "Only this format (repeatable): apple-app, annex-c, device-response, openid4vp.")
        var formats: [String] = []

        func run() throws {
            try runReportingExit {
                let corpus = ConformanceCorpus(time: try at.map { try InputFiles.time($0) } ?? ConformanceCorpus.defaultTime, seed: seed,
                                               formats: try ConformanceOptions.formats(formats))
                try OutputFiles.createDirectory(out)
                do {
                    try corpus.write(to: URL(fileURLWithPath: out))
                } catch let error as SimulationError {
                    throw UsageFailure(error.description)
                }
                let counts = KitFormat.all.map { kit in "\(kit.format.rawValue) \(corpus.cases.filter { $0.format == kit.format }.count)" }
                print("wrote \(corpus.cases.count) cases (\(counts.joined(separator: ", "))) and manifest.json to \(out)")
                return .verified
            }
        }
    }

    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the corpus against a verifier; exit 1 when anything was wrongly accepted.",
            discussion: """
                --target command -- CMD ARGS…: CMD runs once per case with MDOC_CONFORMANCE_CASE_DIR naming the case \
                folder (its case.json lists the files by role) and MDOC_CONFORMANCE_CASE_ID its id. Verdict: a JSON line \
                {"verdict": "accept"|"reject", "code": "…"} on stdout, else the exit status (0 accept, 1 reject, other \
                an error). --target verify-server URL: creates a request on the server, answers it as the kit's wallet \
                and posts the answer (the server must trust the corpus IACA: --write-trust FILE). --target http \
                --profile FILE: the same against another verifier's endpoints, described by a JSON profile.
                """
        )

        @Option(name: .customLong("target"), parsing: .upToNextOption,
                help: "command (then `-- CMD ARGS…`), verify-server URL, or http (with --profile).")
        var target: [String]

        @Option(help: "With --target http: a JSON profile of the verifier's endpoints (how to create a request, where its values are, where to post the answer, how to read the verdict).")
        var profile: String?

        @Option(help: "A corpus folder with manifest.json (default: generate one, at --at and --seed, into --keep or a temporary folder).")
        var corpus: String?

        @Option(help: "Keep the case files in this folder (created if missing), to reproduce a failure.")
        var keep: String?

        @Option(help: "Verification time of a generated corpus, RFC 3339 (default 2026-06-01T12:00:00Z; verify-server: now).")
        var at: String?

        @Option(help: "Seed of a generated corpus.")
        var seed: UInt64 = ConformanceCorpus.defaultSeed

        @Option(name: .customLong("format"), help: "Only this format (repeatable).")
        var formats: [String] = []

        @Option(name: .customLong("case"), help: "Only this case, or the cases whose id starts with this (repeatable), e.g. annex-c/fault/mso-expired or annex-c/fault/.")
        var cases: [String] = []

        @Option(name: .customLong("without"), help: "What the target does not do, so its cases are not applicable (repeatable): request-policy, revocation, state, certificate-profile.")
        var without: [String] = []

        @Flag(name: .customLong("expect-codes"), help: "A rejection must name this implementation's code (for mdocverify and verify-server).")
        var expectCodes = false

        @Flag(help: "Exit 1 on any failure (wrongly rejected, wrong code, error), not only on a wrong acceptance.")
        var strict = false

        @Option(help: "Cases run at once.")
        var jobs = 1

        @Option(help: "Seconds one case may take before it counts as an error.")
        var timeout: Double = 60

        @Option(name: .customLong("json"), help: "Write the results as JSON to this file.")
        var jsonPath: String?

        @Option(name: .customLong("junit"), help: "Write the results as JUnit XML to this file.")
        var junitPath: String?

        @Option(name: .customLong("api-key-file"), help: "verify-server: a file holding an API key: the run then uses the backend API (POST /v1/transactions, the wallet-facing endpoint, GET /v1/transactions/{requestId}).")
        var apiKeyFile: String?

        @Option(name: .customLong("merchant-key"), help: "verify-server and http: the verifier's Apple merchant key, PEM (public or private): Apple cases are sealed to it.")
        var merchantKey: String?

        @Option(name: .customLong("merchant-id"), help: "verify-server and http: the verifier's Apple merchant ID (default: the kit's, \(SimulatedCase.merchantID)).")
        var merchantID: String?

        @Option(name: .customLong("team-id"), help: "verify-server and http: the verifier's Apple team ID (default: the kit's, \(SimulatedCase.teamID)).")
        var teamID: String?

        @Option(help: "verify-server: the origin of the requesting page (default: https://shop.example; with --target http the profile's origin).")
        var origin: String?

        @Option(name: .customLong("write-trust"), help: "Write the corpus IACA (what the verifier must trust) to this file and exit.")
        var writeTrust: String?

        @Argument(parsing: .postTerminator, help: "With --target command: the command and its arguments, after --.")
        var command: [String] = []

        func run() throws {
            try runReportingExit {
                let options = try ConformanceOptions(self)
                if let writeTrust {
                    let corpus = ConformanceCorpus(time: options.time, seed: seed)
                    _ = try OutputFiles.write(Array(try corpus.material().iacaPEM.utf8), to: URL(fileURLWithPath: writeTrust)
                        .deletingLastPathComponent().path, name: URL(fileURLWithPath: writeTrust).lastPathComponent)
                    print("wrote the corpus IACA (seed \(seed)) to \(writeTrust)")
                    return .verified
                }
                let summary = try ConformanceRunner(options: options).run()
                return summary.exitStatus(strict: strict)
            }
        }
    }
}

/// The parsed options of `conformance run`.
struct ConformanceOptions {
    enum Target {
        case command([String])
        case verifyServer(URL)
        case http(profile: String)

        var isCommand: Bool { if case .command = self { true } else { false } }
    }

    /// The options as given.
    let run: Conformance.Run
    let target: Target
    let time: Date
    let formats: [ResponseFormat]?
    let unsupported: Set<ConformanceCase.Requirement>
    let apiKey: String?

    init(_ run: Conformance.Run) throws {
        self.run = run
        target = try Self.target(run)
        unsupported = try Set(run.without.map { name in
            guard let requirement = ConformanceCase.Requirement(rawValue: name) else {
                let names = ConformanceCase.Requirement.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageFailure("--without takes \(names), not \(InputQuote.short(name))")
            }
            return requirement
        })
        guard run.timeout > 0 else { throw UsageFailure("--timeout must be positive") }
        guard (1...64).contains(run.jobs) else { throw UsageFailure("--jobs must be 1 to 64") }
        // A server verifies at its own clock.
        time = try run.at.map { try InputFiles.time($0) } ?? (target.isCommand ? ConformanceCorpus.defaultTime : Date())
        formats = try Self.formats(run.formats)
        apiKey = try run.apiKeyFile.map(Self.apiKey(fromFile:))
    }

    /// The target `--target` names (checked against the command, `--corpus` and `--profile`); what each cannot do, it
    /// declares itself (`ConformanceTarget.unsupported`).
    static func target(_ run: Conformance.Run) throws -> Target {
        guard let kind = run.target.first else { throw UsageFailure("--target needs command or verify-server URL") }
        // Options another target would use are refused, not ignored: a run that looks configured must be.
        if run.profile != nil && kind != "http" { throw UsageFailure("--profile is for --target http only") }
        if run.apiKeyFile != nil && kind != "verify-server" {
            throw UsageFailure("--api-key-file is for --target verify-server only (with --target http, put the key in the profile's headers)")
        }
        if run.origin != nil && kind != "verify-server" {
            throw UsageFailure("--origin is for --target verify-server only (with --target http, the profile's origin is used)")
        }
        let apple = [("--merchant-key", run.merchantKey), ("--merchant-id", run.merchantID), ("--team-id", run.teamID)]
        if let (name, _) = apple.first(where: { $0.1 != nil }), kind == "command" {
            throw UsageFailure("\(name) is for --target verify-server or http only (a command target reads each case's keys from its folder)")
        }
        switch kind {
        case "command":
            guard run.target.count == 1 else { throw UsageFailure("--target command takes no value: put the command after --") }
            guard !run.command.isEmpty || run.writeTrust != nil else {
                throw UsageFailure("--target command needs the command after --, e.g. -- python3 my_shim.py")
            }
            return .command(run.command)
        case "verify-server":
            guard run.target.count == 2, let url = URL(string: run.target[1]), let scheme = url.scheme, ["http", "https"].contains(scheme) else {
                throw UsageFailure("--target verify-server needs the server's base URL, e.g. --target verify-server http://127.0.0.1:8080")
            }
            guard run.command.isEmpty else { throw UsageFailure("--target verify-server takes no command after --") }
            guard run.corpus == nil else { throw UsageFailure("--target verify-server builds each answer for the server's request; leave out --corpus") }
            return .verifyServer(url)
        case "http":
            guard run.target.count == 1, let profile = run.profile else {
                throw UsageFailure("--target http needs --profile FILE (a JSON profile of the verifier's endpoints; see the DocC article \"Test any verifier\")")
            }
            guard run.command.isEmpty, run.corpus == nil else { throw UsageFailure("--target http takes neither a command nor --corpus") }
            return .http(profile: profile)
        default:
            throw UsageFailure("--target must be command, verify-server or http, not \(InputQuote.short(kind))")
        }
    }

    /// The Apple values and origin the HTTP targets answer with.
    func relyingParty() throws -> RelyingPartyValues {
        RelyingPartyValues(origin: run.origin ?? "https://shop.example", merchantKey: try run.merchantKey.map { try Simulate.AppleApp.publicKey($0).0 },
                           merchantID: run.merchantID ?? SimulatedCase.merchantID, teamID: run.teamID ?? SimulatedCase.teamID)
    }

    /// The API key in `--api-key-file`, trimmed; an empty file is a usage error.
    static func apiKey(fromFile path: String) throws -> String {
        let key = try InputFiles.readText(path, what: "API key", maxBytes: 4096).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !key.isEmpty else { throw UsageFailure("--api-key-file \(path) is empty") }
        return key
    }

    /// The formats named by `--format`; nil for none (every format).
    static func formats(_ names: [String]) throws -> [ResponseFormat]? {
        guard !names.isEmpty else { return nil }
        return try names.map { name in
            guard let format = ResponseFormat(rawValue: name), KitFormat.of(format) != nil else {
                throw UsageFailure("--format must be one of \(KitFormat.all.map(\.format.rawValue).joined(separator: ", ")), not \(InputQuote.short(name))")
            }
            return format
        }
    }
}
