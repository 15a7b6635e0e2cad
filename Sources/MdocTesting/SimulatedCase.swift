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
/// Formats: `.appleApp` (AppleAppVerifier with a seeded merchant key), `.annexC` (AnnexCVerifier with a seeded
/// recipient key and origin) and `.deviceResponse` (DeviceResponseVerifier; the reader key is passed for deviceMac).
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
        let simulator = MdocSimulator(pki: pki)
        let configuration = VerifierConfiguration(trustStore: pki.trustStore, profile: profile)
        let response: SimulatedResponse
        let report: VerificationReport
        switch format {
        case .appleApp:
            let merchantKey = try pki.seed.key("merchant", curve: .p256)
            let request = AppleAppRequest(merchantKey: merchantKey.publicKey, nonce: pki.seed.bytes("nonce", count: 32),
                                          merchantID: Self.merchantID, teamID: Self.teamID)
            response = try simulator.simulate(.appleApp(request), options: options)
            let verifier = try AppleAppVerifier(configuration: configuration, keys: [merchantKey])
            let session = AppleAppSession(nonce: request.nonce, merchantID: request.merchantID, teamID: request.teamID,
                                          request: options.request)
            report = verifier.verify(encryptedData: response.bytes, session: session, at: options.time)
        case .deviceResponse:
            let transcript = SessionTranscript(built: .array([.null, .null, .array([.text("MdocTesting"), .bytes(pki.seed.bytes("nonce", count: 32))])]))
            response = try simulator.simulate(.deviceResponse(transcript), options: options)
            report = DeviceResponseVerifier(configuration: configuration).verify(
                deviceResponse: response.bytes, transcript: transcript, readerKey: response.readerKey,
                request: options.request, at: options.time)
        case .annexC:
            let request = try AnnexCRequest(seed: seed)
            response = try simulator.simulate(.annexC(request), options: options)
            let session = AnnexCSession(privateKey: request.recipientKey, encryptionInfo: request.encryptionInfo,
                                        origin: request.origin, request: options.request)
            report = AnnexCVerifier(configuration: configuration).verify(response: response.annexCResponse ?? "", session: session,
                                                                         at: options.time)
        }
        let mode: SimulationOptions.DeviceAuthMode = response.faults.contains(.deviceMacWithoutReaderKey) ? .mac : options.deviceAuthentication
        let expected = self.expected ?? ExpectedOutcome.forFaults(response.faults, format: format, profile: profile,
                                                                  deviceAuthentication: mode)
        return Result(response: response, report: report, expected: expected, failure: expectation(report, expected), pki: pki)
    }
}
