import Tracing

/// Time spent per pipeline stage, summed over documents. Filled on every verification (reading the
/// monotonic clock costs tens of nanoseconds); `mdocverify bench` prints it.
public struct StageTimings: Sendable, Equatable {
    public var decode: Duration = .zero
    public var hpke: Duration = .zero
    public var issuer: Duration = .zero
    public var chain: Duration = .zero
    public var digests: Duration = .zero
    public var device: Duration = .zero

    public enum Stage: String, Sendable {
        case decode, hpke, issuer, chain, digests, device

        /// The span a stage is traced as.
        public var spanName: String { "mdoc." + rawValue }
    }

    public init() {}

    public subscript(stage: Stage) -> Duration {
        get {
            switch stage {
            case .decode: decode
            case .hpke: hpke
            case .issuer: issuer
            case .chain: chain
            case .digests: digests
            case .device: device
            }
        }
        set {
            switch stage {
            case .decode: decode = newValue
            case .hpke: hpke = newValue
            case .issuer: issuer = newValue
            case .chain: chain = newValue
            case .digests: digests = newValue
            case .device: device = newValue
            }
        }
    }

    public static func += (lhs: inout StageTimings, rhs: StageTimings) {
        lhs.decode += rhs.decode
        lhs.hpke += rhs.hpke
        lhs.issuer += rhs.issuer
        lhs.chain += rhs.chain
        lhs.digests += rhs.digests
        lhs.device += rhs.device
    }

    /// Runs `body`, adds its duration to `stage` and records it as a span (`mdoc.decode`, `mdoc.hpke`, …) under the
    /// caller's trace. Spans carry no attributes: nothing of the response reaches a tracer.
    @inlinable
    public mutating func measure<T, E: Error>(_ stage: Stage, _ body: () throws(E) -> T) throws(E) -> T {
        let span = startSpan(stage.spanName)
        let clock = ContinuousClock()
        let start = clock.now
        defer {
            self[stage] += clock.now - start
            span.end()
        }
        return try body()
    }
}
