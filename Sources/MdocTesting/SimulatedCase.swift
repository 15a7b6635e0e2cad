import CryptoCore
import Foundation
import Mdoc
import MdocTrust
import Verifier

/// One call that builds a simulated response, verifies it with the library's verifier and compares the
/// outcome with what its faults predict:
///
///     let result = try SimulatedCase(faults: [.msoExpired]).run()
///     #expect(result.failure == nil, "\(result.failure ?? "")")      // Swift Testing
///     XCTAssertNil(result.failure)                                    // XCTest
///
/// Formats with a request flow (`.appleApp` with a seeded merchant key, `.annexC` with a seeded recipient key and
/// origin) are verified through their `RequestFlow` from `FormatRegistry`, as `verify-server` verifies them;
/// `.deviceResponse` goes to `DeviceResponseVerifier` (the reader key is passed for deviceMac).
public struct SimulatedCase: Sendable {
    /// The response format to build and verify.
    public var format: ResponseFormat
    /// The seed of the PKI, the keys and the request values.
    public var seed: UInt64
    /// Curve of the IACA and Document Signer.
    public var curve: Curve
    /// What to build: content, disclosure, encoding, verification time and faults.
    public var options: SimulationOptions
    /// The certificate profile the verifier checks certificates against.
    public var profile: CertificateProfile
    /// Overrides the outcome the faults predict.
    public var expected: ExpectedOutcome?
    /// The formats the case is simulated and verified in (a test may register one of its own).
    package var registry: KitRegistry = .standard

    /// The merchant identifier of the Apple requests the kit makes.
    public static let merchantID = "merchant.com.example.mdoc-testing"
    /// The team identifier of the Apple requests the kit makes.
    public static let teamID = "MDOCTEST01"

    /// Describes a case: faults, format, seed, curve, verifier profile, verification time and, optionally, the
    /// expected outcome.
    ///
    /// `configure` edits the options after `time` and `faults` are set in them; nil `expected` takes the outcome
    /// the faults predict.
    public init(faults: [Fault] = [], format: ResponseFormat = .appleApp, seed: UInt64 = 1, curve: Curve = .p256,
                profile: CertificateProfile = .default, time: Date = Date(), expected: ExpectedOutcome? = nil,
                configure: (inout SimulationOptions) -> Void = { _ in }) {
        var options = SimulationOptions(time: time, faults: faults)
        configure(&options)
        self.format = format
        self.seed = seed
        self.curve = curve
        self.options = options
        self.profile = profile
        self.expected = expected
    }

    /// What `run()` produced: the response, the report, the expected outcome and whether they agree.
    public struct Result: Sendable {
        /// The simulated response.
        public let response: SimulatedResponse
        /// The verifier's report on the response.
        public let report: VerificationReport
        /// The outcome the report was compared with.
        public let expected: ExpectedOutcome
        /// nil when the report matches `expected`; otherwise why not, with the whole report.
        public let failure: String?
        /// The PKI the response was signed with.
        public let pki: TestPKI
    }

    /// Builds the response, verifies it as a relying party would, and compares the report with the expected outcome.
    ///
    /// Throws when the PKI, the request or the response cannot be built (for example `SimulationError` for a fault
    /// that does not apply to the format). A verification that disagrees with the expectation does not throw: see
    /// the result's `failure`.
    public func run() throws -> Result {
        let pki = try TestPKI.shared(seed: seed, curve: curve, at: options.time)
        let configuration = VerifierConfiguration(trustStore: pki.trustStore, profile: profile)
        let request = try SimulatedRequest(format, seed: seed, pki: pki, configuration: configuration, registry: registry)
        let response = try MdocSimulator(pki: pki).simulate(request.target, options: options)
        let report = try request.verify(response, policy: response.request, at: options.time)
        let mode: SimulationOptions.DeviceAuthMode = response.faults.contains(.deviceMacWithoutReaderKey) ? .mac : options.deviceAuthentication
        let expected = self.expected ?? ExpectedOutcome.forFaults(response.faults, format: format, profile: profile, deviceAuthentication: mode,
                                                                  refusesDeviceMac: registry.kit(format)?.refusesDeviceMac == true,
                                                                  mockDataApplies: registry.formats.descriptor(format)?.mockDataApplies == true)
        return Result(response: response, report: report, expected: expected, failure: expectation(report, expected), pki: pki)
    }
}
