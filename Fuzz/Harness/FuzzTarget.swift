/// One entry point that takes outside bytes, as libFuzzer drives it. `run` returns normally for every input; it
/// traps only when a promise of the product is broken (see `Invariant`), which libFuzzer records as a crash.
public struct FuzzTarget: Sendable {
    /// The name `FUZZ_TARGET` and `fuzz-verifier` use, also the corpus folder's name.
    public let name: String
    /// What the target feeds and which code it reaches.
    public let summary: String
    /// libFuzzer's `-max_len`: large enough for the seeds and their growth, far below the product's ceilings so a
    /// run explores structure rather than size (size ceilings have their own tests).
    public let maxLength: Int
    private let runner: @Sendable ([UInt8]) -> Void
    private let seedMaker: @Sendable () throws -> [[UInt8]]

    init(_ name: String, maxLength: Int, _ summary: String, seeds: @escaping @Sendable () throws -> [[UInt8]],
         run: @escaping @Sendable ([UInt8]) -> Void) {
        self.name = name
        self.summary = summary
        self.maxLength = maxLength
        self.runner = run
        self.seedMaker = seeds
    }

    /// Feeds one input. Fixtures (keys, trust stores, simulated exchanges) are built once, on first use.
    public func run(_ input: [UInt8]) { runner(input) }

    /// The seed corpus: real vectors and the simulator's output for this entry point.
    public func seeds() throws -> [[UInt8]] { try seedMaker() }
}

/// Every fuzz target, in the order `Fuzz/run.sh` runs them.
public enum FuzzTargets {
    public static let all: [FuzzTarget] = [
        cbor, appleEnvelope, applePlaintext, deviceResponse, annexC, openID4VP, x509, serverBody, vical, lote, statusToken,
    ]

    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}
