import Tracing

/// Time spent per pipeline stage, summed over documents. Filled on every verification (reading the
/// monotonic clock costs tens of nanoseconds); `mdocverify bench` prints it.
public struct StageTimings: Sendable, Equatable {
    /// Time spent decoding: the CBOR input, the envelope, the DeviceResponse and its documents.
    public var decode: Duration = .zero
    /// Time spent decrypting the encrypted response (HPKE, or the JWE of OpenID4VP).
    public var hpke: Duration = .zero
    /// Time spent on issuerAuth: its algorithm and `x5chain`, the MSO's decoding and validity, and the issuer
    /// signature.
    public var issuer: Duration = .zero
    /// Time spent on the document signer's certificate path, its Annex B profile, and revocation (CRL and MSO status).
    public var chain: Duration = .zero
    /// Time spent checking the disclosed elements' value digests against the MSO.
    public var digests: Duration = .zero
    /// Time spent on device authentication and the MSO's key authorizations.
    public var device: Duration = .zero

    /// A pipeline stage that `StageTimings` times separately.
    public enum Stage: String, Sendable {
        /// Decoding the input, the envelope and the DeviceResponse.
        case decode
        /// Decrypting the encrypted response.
        case hpke
        /// The issuerAuth and MSO checks.
        case issuer
        /// Certificate path validation, the certificate profile and revocation.
        case chain
        /// The value digest check.
        case digests
        /// Device authentication and key authorization.
        case device

        /// The span a stage is traced as.
        public var spanName: String {
            switch self {
            case .decode: "mdoc.decode"
            case .hpke: "mdoc.hpke"
            case .issuer: "mdoc.issuer"
            case .chain: "mdoc.chain"
            case .digests: "mdoc.digests"
            case .device: "mdoc.device"
            }
        }
    }

    /// Whether `measure` records spans: decided when the timings are created, so a process without a bootstrapped
    /// tracer does not build a no-op span (a tracer lookup under a lock and a boxed span) for every stage.
    @usableFromInline
    let traced: Bool

    /// Creates timings with every stage at zero.
    public init() {
        traced = Self.tracerInstalled
    }

    /// Timings that record spans when `traced`: one tracer lookup per verification serves its nested timings.
    package init(traced: Bool) {
        self.traced = traced
    }

    /// Whether `measure` records spans.
    package var isTraced: Bool { traced }

    /// Whether a tracer other than the no-op one is bootstrapped (a lookup under a lock and a dynamic cast).
    package static var tracerInstalled: Bool { !(InstrumentationSystem.tracer is NoOpTracer) }

    /// Equal when every stage's time is.
    public static func == (lhs: StageTimings, rhs: StageTimings) -> Bool {
        lhs.decode == rhs.decode && lhs.hpke == rhs.hpke && lhs.issuer == rhs.issuer && lhs.chain == rhs.chain
            && lhs.digests == rhs.digests && lhs.device == rhs.device
    }

    /// The time recorded for `stage`.
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

    /// Adds each stage's time in `rhs` to the same stage in `lhs`.
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
        let span = traced ? startSpan(stage.spanName) : nil
        let clock = ContinuousClock()
        let start = clock.now
        defer {
            self[stage] += clock.now - start
            span?.end()
        }
        return try body()
    }
}
