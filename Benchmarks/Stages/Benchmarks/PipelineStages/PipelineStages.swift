import Benchmark
import CBOR
import Foundation
import MdocModel
import MdocTesting
import Verifier

// The pipeline's stages, each measured alone (names without spaces: they name the files in Thresholds/), on the responses `mdocverify bench` uses (`PerformanceCase`).
// CI checks the malloc counts against the committed thresholds (Thresholds/): counts are stable on a noisy shared
// machine, times are not, so times are printed and never checked.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .microseconds,
        warmupIterations: 10,
        maxDuration: .seconds(2),
        maxIterations: 5_000,
        // The static check compares the p90 with Thresholds/: more than 2 % more allocations is a regression.
        thresholds: [.mallocCountTotal: .init(relative: [.p90: 2.0])]
    )

    func fixture(_ name: PerformanceCase.Name) -> PerformanceCase {
        do {
            let fixture = try PerformanceCase.make(name)
            guard fixture.verify().verified else { fatalError("the \(name) benchmark response does not verify") }
            return fixture
        } catch {
            fatalError("cannot build the \(name) benchmark response: \(error)")
        }
    }
    let apple = fixture(.apple)
    let large = fixture(.large)
    guard let inner = large.deviceResponse else { fatalError("the large case carries its DeviceResponse") }
    let deviceResponseVerifier = DeviceResponseVerifier(configuration: large.verifier.configuration)

    Benchmark("verify.apple-sample") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(apple.verify()) }
    }
    Benchmark("verify.large") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(large.verify()) }
    }
    Benchmark("decode.device-response") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try CBORDecoder.decode(inner.bytes)) }
    }
    Benchmark("mdoc-checks.device-response") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(deviceResponseVerifier.verify(deviceResponse: inner.bytes, transcript: inner.transcript, at: large.time))
        }
    }
    let report = apple.verify()
    Benchmark("report.json") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(report.jsonBytes()) }
    }
}
