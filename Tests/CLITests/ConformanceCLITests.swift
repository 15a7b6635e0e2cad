import Foundation
import MdocTesting
import Testing
import TestSupport
import Verifier

/// `mdocverify conformance`: the committed corpus equals the generator's, mdocverify passes every case through the
/// command target, the deliberately weak verifiers in Tests/ConformanceFixtures are caught by name, and the runner
/// reads verdicts, errors and time-outs as documented.
@Suite("mdocverify conformance")
struct ConformanceCLITests {
    static let corpus = "TestVectors/conformance"
    static let fixtures = VectorFiles.root.appendingPathComponent("Tests/ConformanceFixtures")

    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mdoc-conformance-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A fixture run through `env`, so the shim finds the mdocverify under test.
    static func fixture(_ name: String) -> [String] {
        ["/usr/bin/env", "MDOCVERIFY=\(MdocVerifyCLI.binary.path)", "python3", fixtures.appendingPathComponent(name).path]
    }

    static func json(_ path: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: path)) as? [String: Any])
    }

    @Test("the committed manifest is what the generator produces, and every file it lists is committed")
    func committedManifestIsCurrent() throws {
        let corpus = ConformanceCorpus()
        let generated = corpus.manifest(material: try corpus.material())
        let committed = VectorFiles.text(Self.corpus + "/manifest.json")
        #expect(committed == generated, "regenerate: swift run mdocverify conformance generate --out TestVectors/conformance")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(committed.utf8)) as? [String: Any])
        let cases = try #require(manifest["cases"] as? [[String: Any]])
        #expect(cases.count == corpus.cases.count)
        var missing: [String] = []
        for entry in cases {
            let folder = try #require(entry["folder"] as? String)
            let files = try #require(entry["files"] as? [String: Any])
            let names = files.values.flatMap { ($0 as? [String]) ?? [($0 as? String) ?? ""] } + ["case.json"]
            for name in names where !FileManager.default.fileExists(atPath: VectorFiles.url("\(Self.corpus)/\(folder)/\(name)").path) {
                missing.append("\(folder)/\(name)")
            }
        }
        #expect(missing.isEmpty, "\(missing)")
    }

    @Test("every format has positive controls, every applicable fault and the attack classes")
    func catalogueCoversEveryFormat() throws {
        let corpus = ConformanceCorpus()
        for kit in KitFormat.all {
            let cases = corpus.cases.filter { $0.format == kit.format }
            let faults = Set(cases.compactMap(\.fault))
            #expect(faults == Set(Fault.allCases.filter { $0.formats.contains(kit.format) }), "\(kit.format)")
            #expect(cases.contains { $0.kind == .positive && $0.verdict == .accept })
            #expect(cases.contains { $0.id == "\(kit.format.rawValue)/attack/age-over-disclosure" && $0.verdict == .reject })
            #expect(cases.contains { $0.id == "\(kit.format.rawValue)/attack/transcript-other-format" && $0.verdict == .reject })
            #expect(Set(cases.map(\.id)).count == cases.count, "ids are unique")
        }
    }

    @Test("generate writes one folder per case with case.json and manifest.json")
    func generateWritesCases() throws {
        let out = try Self.folder()
        defer { try? FileManager.default.removeItem(at: out) }
        let run = try MdocVerifyCLI.run(["conformance", "generate", "--out", out.path, "--format", "device-response"])
        #expect(run.status == 0, "\(run.stderr)")
        let manifest = try Self.json(out.appendingPathComponent("manifest.json"))
        let cases = try #require(manifest["cases"] as? [[String: Any]])
        #expect(cases.count == ConformanceCorpus(formats: [.deviceResponse]).cases.count)
        #expect(cases.allSatisfy { ($0["format"] as? String) == "device-response" })
        let positive = out.appendingPathComponent("device-response/positive/mdl")
        for name in ["case.json", "device-response.cbor", "session-transcript.cbor", "iaca.pem"] {
            #expect(FileManager.default.fileExists(atPath: positive.appendingPathComponent(name).path), "\(name)")
        }
    }

    @Test("mdocverify through its shim: every case as expected, codes included (0 wrongly accepted, 0 wrongly rejected)")
    func mdocverifyPassesEveryCase() throws {
        let out = try Self.folder()
        defer { try? FileManager.default.removeItem(at: out) }
        let results = out.appendingPathComponent("results.json")
        let junit = out.appendingPathComponent("results.xml")
        let run = try MdocVerifyCLI.run(["conformance", "run", "--corpus", Self.corpus, "--jobs", "2", "--strict", "--expect-codes",
                                         "--json", results.path, "--junit", junit.path, "--target", "command", "--"]
                                        + Self.fixture("mdocverify_shim.py"))
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        let summary = try #require(try Self.json(results)["summary"] as? [String: Int])
        #expect(summary["wrongly accepted"] == 0 && summary["wrongly rejected"] == 0 && summary["wrong code"] == 0 && summary["error"] == 0,
                "\(summary)")
        #expect(summary["passed"] == ConformanceCorpus().cases.filter { !$0.requires.contains(.state) }.count)
        #expect(summary["not applicable"] == ConformanceCorpus().cases.filter { $0.requires.contains(.state) }.count)
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains("<testsuite name=\"annex-c\"") && !xml.contains("<failure"))
    }

    @Test("a verifier that accepts whatever it can decrypt is caught, each wrongly accepted case named")
    func acceptsAfterDecryptionIsCaught() throws {
        let out = try Self.folder()
        defer { try? FileManager.default.removeItem(at: out) }
        let results = out.appendingPathComponent("results.json")
        let run = try MdocVerifyCLI.run(["conformance", "run", "--corpus", Self.corpus, "--jobs", "2", "--json", results.path,
                                         "--case", "apple-app/", "--case", "device-response/fault/", "--target", "command", "--"]
                                        + Self.fixture("weak_accepts_after_decryption.py"))
        #expect(run.status == 1, "wrongly accepted cases exit 1: \(run.stderr)")
        #expect(run.stdout.contains("WRONGLY ACCEPTED (critical):"))
        for id in ["apple-app/fault/issuer-signature-corrupted", "apple-app/fault/mso-expired", "apple-app/fault/untrusted-root",
                   "apple-app/fault/device-signature-other-transcript", "apple-app/attack/age-over-disclosure",
                   "apple-app/attack/transcript-other-format", "device-response/fault/tampered-element-value"] {
            #expect(run.stdout.contains("\n  \(id) ["), "\(id) is named")
        }
        let cases = try #require(try Self.json(results)["cases"] as? [[String: Any]])
        func outcome(_ id: String) -> String? { cases.first { $0["id"] as? String == id }?["outcome"] as? String }
        // What it does check passes: the envelope faults are rejected, correct responses accepted.
        #expect(outcome("apple-app/fault/corrupted-ciphertext") == "passed")
        #expect(outcome("apple-app/fault/wrong-info-hash") == "passed")
        #expect(outcome("apple-app/positive/mdl") == "passed")
        #expect(outcome("apple-app/fault/mso-expired") == "wrongly accepted")
    }

    @Test("a verifier that checks only the issuer signature is caught; a corrupted signature it rejects")
    func issuerSignatureOnlyIsCaught() throws {
        let run = try MdocVerifyCLI.run(["conformance", "run", "--corpus", Self.corpus, "--jobs", "2", "--case", "annex-c/",
                                         "--target", "command", "--"] + Self.fixture("weak_issuer_signature_only.py"))
        #expect(run.status == 1, "\(run.stderr)")
        for id in ["annex-c/fault/untrusted-root", "annex-c/fault/tampered-element-value", "annex-c/fault/mso-expired",
                   "annex-c/fault/device-key-mismatch", "annex-c/fault/status-revoked", "annex-c/attack/element-type-bool-as-text"] {
            #expect(run.stdout.contains("\n  \(id) ["), "\(id) is named")
        }
        #expect(!run.stdout.contains("\n  annex-c/fault/issuer-signature-corrupted ["), "it does check the signature")
    }

    /// Runs two device-response cases (one must verify, one must not) against `command`.
    static func runTwo(_ command: [String], _ extra: [String] = [], in out: URL) throws -> (MdocVerifyCLI.Run, [String: Any]) {
        let results = out.appendingPathComponent("results-\(UUID().uuidString).json")
        let run = try MdocVerifyCLI.run(["conformance", "run", "--corpus", corpus, "--case", "device-response/positive/mdl",
                                         "--case", "device-response/fault/mso-expired", "--json", results.path] + extra
                                        + ["--target", "command", "--"] + command)
        return (run, try json(results))
    }

    static func outcomes(_ results: [String: Any]) -> [String: String] {
        let cases = (results["cases"] as? [[String: Any]]) ?? []
        return Dictionary(uniqueKeysWithValues: cases.compactMap { entry in
            (entry["id"] as? String).map { ($0, (entry["outcome"] as? String) ?? "") }
        })
    }

    @Test("verdicts from exit status: 0 accept, 1 reject, anything else an error; --strict fails on any failure")
    func exitStatusVerdicts() throws {
        let out = try Self.folder()
        defer { try? FileManager.default.removeItem(at: out) }
        let (acceptAll, accepted) = try Self.runTwo(["/bin/sh", "-c", "exit 0"], in: out)
        #expect(acceptAll.status == 1)
        #expect(Self.outcomes(accepted) == ["device-response/positive/mdl": "passed", "device-response/fault/mso-expired": "wrongly accepted"])
        #expect(acceptAll.stdout.contains("must be rejected (here: mso.expired); it was accepted"))
        #expect(acceptAll.stdout.contains("reproduce: MDOC_CONFORMANCE_CASE_DIR="))

        let (rejectAll, rejected) = try Self.runTwo(["/bin/sh", "-c", "exit 1"], in: out)
        #expect(rejectAll.status == 0, "a wrong rejection alone does not fail without --strict")
        #expect(Self.outcomes(rejected) == ["device-response/positive/mdl": "wrongly rejected", "device-response/fault/mso-expired": "passed"])
        let (strict, _) = try Self.runTwo(["/bin/sh", "-c", "exit 1"], ["--strict"], in: out)
        #expect(strict.status == 1)

        let (crash, crashed) = try Self.runTwo(["/bin/sh", "-c", "echo boom >&2; exit 3"], in: out)
        #expect(crash.status == 0)
        #expect(Self.outcomes(crashed).values.allSatisfy { $0 == "error" })
        #expect(crash.stdout.contains(#"exit status 3 and no JSON verdict line: "boom""#))
    }

    @Test("a JSON verdict line wins over the exit status; with --expect-codes a wrong code fails")
    func jsonVerdictLine() throws {
        let out = try Self.folder()
        defer { try? FileManager.default.removeItem(at: out) }
        let script = #"if [ "$MDOC_CONFORMANCE_CASE_ID" = device-response/positive/mdl ]; then echo '{"verdict": "accept"}'; "#
            + #"else echo 'log line'; echo '{"verdict": "reject", "code": "mso.not_yet_valid"}'; fi; exit 7"#
        let (plain, plainResults) = try Self.runTwo(["/bin/sh", "-c", script], in: out)
        #expect(plain.status == 0)
        #expect(Self.outcomes(plainResults).values.allSatisfy { $0 == "passed" })
        let (coded, codedResults) = try Self.runTwo(["/bin/sh", "-c", script], ["--expect-codes"], in: out)
        #expect(coded.status == 0)
        #expect(Self.outcomes(codedResults)["device-response/fault/mso-expired"] == "wrong code")
        #expect(coded.stdout.contains("where this implementation must say mso.expired"))

        let (bad, badResults) = try Self.runTwo(["/bin/sh", "-c", #"echo '{"verdict": "maybe"}'"#], in: out)
        #expect(bad.status == 0)
        #expect(Self.outcomes(badResults).values.allSatisfy { $0 == "error" })
    }

    @Test("a command that does not answer in time is stopped and counted as an error")
    func timeout() throws {
        let out = try Self.folder()
        defer { try? FileManager.default.removeItem(at: out) }
        let (run, results) = try Self.runTwo(["/bin/sh", "-c", "exec sleep 30"], ["--timeout", "0.5"], in: out)
        #expect(run.status == 0)
        #expect(Self.outcomes(results).values.allSatisfy { $0 == "error" })
        #expect(run.stdout.contains("no answer within"))
    }

    @Test("--without marks the cases that need it not applicable; JUnit lists them as skipped and failures by name")
    func withoutAndJUnit() throws {
        let out = try Self.folder()
        defer { try? FileManager.default.removeItem(at: out) }
        let junit = out.appendingPathComponent("results.xml")
        let run = try MdocVerifyCLI.run(["conformance", "run", "--corpus", Self.corpus, "--case", "openid4vp/fault/status-",
                                         "--case", "openid4vp/fault/mso-expired", "--without", "revocation", "--junit", junit.path,
                                         "--target", "command", "--", "/bin/sh", "-c", "exit 0"])
        #expect(run.status == 1)
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains(#"name="openid4vp/fault/status-revoked" time="0.000"><skipped"#))
        #expect(xml.contains(#"name="openid4vp/fault/mso-expired""#) && xml.contains(#"<failure type="wrongly accepted""#))
        #expect(!xml.contains("status-revoked\" time=\"0.000\"><failure"))
    }

    @Test("usage errors exit 2 and say what to do")
    func usageErrors() throws {
        let noCommand = try MdocVerifyCLI.run(["conformance", "run", "--corpus", Self.corpus, "--target", "command"])
        #expect(noCommand.status == 2)
        #expect(noCommand.stderr.contains("needs the command after --"))
        let http = try MdocVerifyCLI.run(["conformance", "run", "--target", "http"])
        #expect(http.status == 2)
        let unknown = try MdocVerifyCLI.run(["conformance", "run", "--corpus", Self.corpus, "--without", "crl", "--target", "command", "--", "true"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("--without takes request-policy, revocation, state, certificate-profile, not \"crl\""))
        let notACorpus = try MdocVerifyCLI.run(["conformance", "run", "--corpus", "TestVectors/apple", "--target", "command", "--", "true"])
        #expect(notACorpus.status == 2)
    }
}
