import Tracing

/// Time spent per pipeline stage, summed over documents. Filled on every verification (a monotonic clock reading per
/// stage); `mdocverify bench` prints it.
///
/// Timings also decide whether stages are traced as spans: `init()` looks the tracer up once, and the timings nested in
/// a verification (`nested()`) inherit that decision, so no caller passes a flag.
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

    /// Whether `measure` records spans: decided once, when the verification's timings are created, so a process
    /// without a bootstrapped tracer builds no no-op span for every stage.
    @usableFromInline
    let traced: Bool

    /// Creates timings with every stage at zero, which record spans when a tracer is bootstrapped.
    public init() {
        traced = Self.tracerInstalled
    }

    init(traced: Bool) {
        self.traced = traced
    }

    /// Timings with every stage at zero for a part of this verification (a document): they record spans when these
    /// do, without looking the tracer up again.
    package func nested() -> StageTimings {
        StageTimings(traced: traced)
    }

    /// The tracer for spans this verification opens itself (one per run of same-stage checks), or nil when its
    /// stages are not traced.
    package var tracer: (any Tracer)? {
        traced ? InstrumentationSystem.tracer : nil
    }

    /// Whether an instrument other than the no-op one is bootstrapped or bound to the task: then spans are made
    /// through `InstrumentationSystem.tracer` (a no-op tracer when that instrument does not trace). Comparing the
    /// instrument's type is cheaper than looking the tracer up (docs/performance.md).
    package static var tracerInstalled: Bool { !(InstrumentationSystem.instrument is NoOpInstrument) }

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
