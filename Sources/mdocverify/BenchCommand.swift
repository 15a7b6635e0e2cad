import ArgumentParser
import CryptoCore
import Foundation
import Mdoc
import Synchronization
import Verifier

/// Throughput of full verifications against the OpenSSL primitive floor measured in the same process. Verifications
/// and primitives are measured in alternating rounds and each keeps its best round, so a noisy neighbour moves both
/// sides alike. The last line is always `share of floor: 0.NN`.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Benchmark full verifications against the OpenSSL primitive floor (release build; one core unless --threads)."
    )

    @Option(name: .customLong("case"), help: "Response to verify: apple (Apple's signed sample) or large (P-384 issuer, three namespaces, 30 elements).")
    var benchCase: BenchCase.Name = .apple

    @Option(help: "Seconds to spend verifying, spread over the rounds.")
    var seconds: Double = 3

    @Option(help: "Alternating rounds of verifications and primitive measurements (at least 1).")
    var rounds: Int = 5

    @Option(help: "Also verify on this many threads at once and print the speed-up over one thread (1 = off).")
    var threads: Int = 1

    func validate() throws {
        guard seconds > 0, seconds <= 600 else { throw ValidationError("--seconds must be in 0…600") }
        guard (1...50).contains(rounds) else { throw ValidationError("--rounds must be in 1…50") }
        guard (1...64).contains(threads) else { throw ValidationError("--threads must be in 1…64") }
    }

    func run() throws {
        try runReportingExit {
            let cold = try ColdStart.measure(benchCase)
            let bench = try BenchCase.make(benchCase)
            let warmUp = bench.verify()
            guard warmUp.verified else {
                throw UsageFailure("the bench response did not verify: \(warmUp.primaryError?.description ?? "?")")
            }
            var primitives = try PrimitiveCosts(bench.floor)
            var best = Double.infinity
            var timings = StageTimings()
            var total = 0
            var elapsed = Duration.zero
            let slice = Duration.milliseconds(Int64(seconds * 1000) / Int64(rounds))
            for _ in 0..<rounds {
                let round = Self.verifyLoop(bench, for: slice)
                best = min(best, round.elapsed.microseconds / Double(round.count))
                timings += round.timings
                total += round.count
                elapsed += round.elapsed
                try primitives.measure(milliseconds: 25)
            }

            print("mdocverify bench: \(bench.title)")
            print("\(total) verifications in \(format(elapsed.microseconds / 1e6, digits: 2)) s on one core, \(rounds) rounds")
            print("verifications/second: \(format(1e6 / best, digits: 0)) (best round; mean \(format(Double(total) / (elapsed.microseconds / 1e6), digits: 0)))")
            print("per verification: \(format(best)) µs")
            let stage = { (d: Duration) in format(d.microseconds / Double(total)) }
            print("stages (µs per verification, mean): decode \(stage(timings.decode)), hpke \(stage(timings.hpke)), "
                + "issuer \(stage(timings.issuer)), chain \(stage(timings.chain)), digests \(stage(timings.digests)), device \(stage(timings.device))")
            print("cold start: production bundle loaded in \(format(cold.bundle.microseconds / 1000, digits: 2)) ms (\(cold.anchors) anchors), "
                + "first verification \(format(cold.firstVerification.microseconds / 1000, digits: 2)) ms, "
                + "second \(format(cold.secondVerification.microseconds / 1000, digits: 2)) ms")
            if threads > 1 {
                let scaling = Self.scaling(bench, threads: threads, seconds: seconds)
                print("threads: 1 → \(format(scaling.one, digits: 0))/s, \(threads) → \(format(scaling.many, digits: 0))/s, "
                    + "speed-up \(format(scaling.many / scaling.one, digits: 2))×")
            }
            print("OpenSSL primitives (µs per operation, best round, this process):")
            for (name, count, cost) in primitives.table { print("  \(count) × \(name): \(format(cost, digits: 2))") }
            print("floor (summed primitive cost of one verification): \(format(primitives.floor)) µs")
            print("share of floor: \(format(primitives.floor / best, digits: 2))")
            return .verified
        }
    }

    private static func verifyLoop(_ bench: BenchCase, for budget: Duration) -> (count: Int, elapsed: Duration, timings: StageTimings) {
        let clock = ContinuousClock()
        var timings = StageTimings()
        var count = 0
        let start = clock.now
        repeat {
            timings += bench.verify().timings
            count += 1
        } while clock.now - start < budget
        return (count, clock.now - start, timings)
    }

    /// Verifications per second on one thread, then on `threads` threads sharing the one verifier (as a server's
    /// request handlers do), each for half of `seconds`.
    private static func scaling(_ bench: BenchCase, threads: Int, seconds: Double) -> (one: Double, many: Double) {
        let budget = Duration.milliseconds(Int64(seconds * 500))
        func rate(_ count: Int) -> Double {
            let done = Atomic<Int>(0)
            let clock = ContinuousClock()
            let start = clock.now
            DispatchQueue.concurrentPerform(iterations: count) { _ in
                done.add(verifyLoop(bench, for: budget).count, ordering: .relaxed)
            }
            return Double(done.load(ordering: .relaxed)) / ((clock.now - start).microseconds / 1e6)
        }
        return (rate(1), rate(threads))
    }

    private func format(_ value: Double, digits: Int = 1) -> String {
        String(format: "%.\(digits)f", value)
    }
}

/// What a fresh process pays before its first answer: the embedded production bundle parsed into a trust store, and
/// the first verification (certificate parsing, chain validation and key import not yet cached).
struct ColdStart {
    let bundle: Duration
    let anchors: Int
    let firstVerification: Duration
    let secondVerification: Duration

    static func measure(_ name: BenchCase.Name) throws -> ColdStart {
        let clock = ContinuousClock()
        let start = clock.now
        let production = try ProductionTrustBundle.trustStore()
        let loaded = clock.now
        // Apple's sample is verified with the production anchors loaded beside its test IACA, as a server holds them.
        let bench = try BenchCase.make(name, trustStore: name == .apple ? production : nil)
        let prepared = clock.now
        let first = bench.verify()
        let firstDone = clock.now
        _ = bench.verify()
        let second = clock.now - firstDone
        guard first.verified else { throw UsageFailure("the bench response did not verify on a cold start") }
        return ColdStart(bundle: loaded - start, anchors: production.anchors.count,
                         firstVerification: firstDone - prepared, secondVerification: second)
    }
}
