import Testing
import TestSupport

/// `mdocverify bench` prints what the speed work is judged by; its figures are not asserted (timings belong in
/// benchmarks), only that every part of the output is there and that the verification it times succeeded.
@Suite("mdocverify bench")
struct BenchCLITests {
    @Test("both cases verify and print stages, cold start, the thread speed-up, the floor and, last, the share of floor",
          arguments: ["apple", "large"])
    func output(_ name: String) throws {
        let run = try MdocVerifyCLI.run(["bench", "--case", name, "--seconds", "0.2", "--rounds", "2", "--threads", "2"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("mdocverify bench: ") == true)
        for prefix in ["verifications/second: ", "per verification: ", "stages (µs per verification, mean): decode ",
                       "cold start: production bundle loaded in ", "threads: 1 → ", "floor (summed primitive cost"] {
            #expect(lines.contains { $0.hasPrefix(prefix) }, "no line starting \(prefix)")
        }
        #expect(lines.last?.hasPrefix("share of floor: 0.") == true || lines.last?.hasPrefix("share of floor: 1.") == true, "\(lines.last ?? "")")
        #expect(run.stdout.contains(name == "large" ? "ECDSA P-384 verify" : "ECDSA P-256 verify, issuer"))
    }

    @Test("out-of-range options are refused before anything runs")
    func limits() throws {
        for arguments in [["--threads", "0"], ["--rounds", "0"], ["--seconds", "0"], ["--case", "huge"]] {
            let run = try MdocVerifyCLI.run(["bench"] + arguments)
            #expect(run.status != 0 && run.stdout.isEmpty, "\(arguments)")
        }
    }
}
