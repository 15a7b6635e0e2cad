import CryptoCore
import Foundation
import Mdoc
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
    public var format: ResponseFormat
    public var seed: UInt64
    /// Curve of the IACA and Document Signer.
    public var curve: Curve
    public var options: SimulationOptions
    public var profile: CertificateProfile
    /// Overrides the outcome the faults predict.
    public var expected: ExpectedOutcome?

    public static let merchantID = "merchant.com.example.mdoc-testing"
    public static let teamID = "MDOCTEST01"

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

    public struct Result: Sendable {
        public let response: SimulatedResponse
        public let report: VerificationReport
        public let expected: ExpectedOutcome
        /// nil when the report matches `expected`; otherwise why not, with the whole report.
        public let failure: String?
        public let pki: TestPKI
    }

    public func run() throws -> Result {
        let pki = try TestPKI(seed: seed, curve: curve, at: options.time)
        let configuration = VerifierConfiguration(trustStore: pki.trustStore, profile: profile)
        let request = try SimulatedRequest(format, seed: seed, pki: pki, configuration: configuration)
        let response = try MdocSimulator(pki: pki).simulate(request.target, options: options)
        let report = try request.verify(response, policy: response.request, at: options.time)
        let mode: SimulationOptions.DeviceAuthMode = response.faults.contains(.deviceMacWithoutReaderKey) ? .mac : options.deviceAuthentication
        let expected = self.expected ?? ExpectedOutcome.forFaults(response.faults, format: format, profile: profile,
                                                                  deviceAuthentication: mode)
        return Result(response: response, report: report, expected: expected, failure: expectation(report, expected), pki: pki)
    }
}
