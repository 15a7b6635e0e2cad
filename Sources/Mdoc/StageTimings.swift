/// Time spent per pipeline stage, summed over documents. Filled on every verification (reading the
/// monotonic clock costs tens of nanoseconds); `mdocverify bench` prints it.
public struct StageTimings: Sendable, Equatable {
    public var decode: Duration = .zero
    public var hpke: Duration = .zero
    public var issuer: Duration = .zero
    public var chain: Duration = .zero
    public var digests: Duration = .zero
    public var device: Duration = .zero

    public init() {}

    public static func += (lhs: inout StageTimings, rhs: StageTimings) {
        lhs.decode += rhs.decode
        lhs.hpke += rhs.hpke
        lhs.issuer += rhs.issuer
        lhs.chain += rhs.chain
        lhs.digests += rhs.digests
        lhs.device += rhs.device
    }

    /// Runs `body` and adds its duration to the stage at `keyPath`.
    @inlinable
    public mutating func measure<T, E: Error>(_ keyPath: WritableKeyPath<StageTimings, Duration>, _ body: () throws(E) -> T) throws(E) -> T {
        let clock = ContinuousClock()
        let start = clock.now
        defer { self[keyPath: keyPath] += clock.now - start }
        return try body()
    }
}
