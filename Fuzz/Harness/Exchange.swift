import CryptoCore
import Foundation
import MdocTesting
import Verifier

/// One simulated exchange of a format, built once per process with the compliance kit: the relying party's flow and
/// kept state (fixed keys, nonce and trust store), and the wallet's genuine response, which seeds the corpus.
struct Exchange: Sendable {
    /// 2026-01-01T00:00:00Z: the kit's certificates and MSO are valid then, whatever day the fuzzer runs.
    static let time = Date(timeIntervalSince1970: 1_767_225_600)

    let request: SimulatedRequest
    let response: SimulatedResponse
    let flow: (any RequestFlow)?

    init(_ format: ResponseFormat, seed: UInt64 = 7, responseMode: OpenID4VPSession.ResponseMode = .dcAPIJWT) throws {
        let pki = try TestPKI(seed: seed, at: Self.time)
        let configuration = VerifierConfiguration(trustStore: pki.trustStore)
        let request = try SimulatedRequest(format, seed: seed, pki: pki, configuration: configuration, responseMode: responseMode)
        self.request = request
        response = try MdocSimulator(pki: pki).simulate(request.target, options: SimulationOptions(time: Self.time))
        flow = try FormatRegistry.flows(request.environment).first { $0.format == format }
        // Mutations start from a response that verifies; otherwise the harness would only ever explore rejections.
        let genuine = flow == nil ? verify(deviceResponse: response.bytes) : verify(posted: response.postedText)
        guard genuine.verified else { throw SimulationError.invalidOption("the genuine \(format.rawValue) response was rejected: \(genuine.errors)") }
    }

    /// The response as a client posts it, through the format's flow.
    func verify(posted text: String) -> VerificationReport {
        guard let flow, let state = request.state else { fatalError("\(request.format.rawValue) has no request flow") }
        return flow.verify(response: text, state: state, policy: response.request, at: Self.time)
    }

    func verify(deviceResponse bytes: [UInt8]) -> VerificationReport {
        DeviceResponseVerifier(configuration: request.environment.configuration).verify(
            deviceResponse: bytes, transcript: response.transcript, readerKey: response.readerKey, request: response.request, at: Self.time)
    }
}
