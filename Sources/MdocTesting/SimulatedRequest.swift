import CryptoCore
import Foundation
import Mdoc
import MdocModel
import Verifier

/// The relying party's side of one simulated request, for each format: what the simulated wallet answers, and the
/// state and configuration a server keeps for it. Verification goes through the format's `RequestFlow` from
/// `FormatRegistry`, the same path `verify-server` takes; a bare DeviceResponse (no request flow) goes to
/// `DeviceResponseVerifier` with its transcript. Package-visible so the fuzz harness verifies mutated responses
/// through the same flows.
package struct SimulatedRequest: Sendable {
    package let format: ResponseFormat
    package let target: ResponseTarget
    /// The kept state in the flow's own layout; nil for a format without a request flow.
    package let state: KeptState?
    package let environment: FlowEnvironment
    /// The formats the request's flow is looked up in.
    package let registry: KitRegistry

    package init(_ format: ResponseFormat, seed: UInt64, pki: TestPKI, configuration: VerifierConfiguration,
                 responseMode: OpenID4VPSession.ResponseMode = .dcAPIJWT, registry: KitRegistry = .standard) throws {
        guard let kit = registry.kit(format) else {
            throw SimulationError.invalidOption("the kit cannot simulate \(format.rawValue)")
        }
        let seeded = try kit.seededRequest(.init(seed: seed, pki: pki, configuration: configuration, responseMode: responseMode))
        self.format = format
        target = seeded.target
        state = seeded.state
        environment = seeded.environment
        self.registry = registry
    }

    /// Verifies `response` as a relying party would: through the format's flow, with the response as posted.
    /// The kit's CRL and status list go to the verifier; with a status list in the MSO the policy is `hard`, so an
    /// unknown status is a failure the faults can predict.
    package func verify(_ response: SimulatedResponse, policy: RequestPolicy?, at time: Date) throws -> VerificationReport {
        var environment = self.environment
        environment.configuration.revocationSource = response.revocation.source
        environment.configuration.revocation = response.revocation.tokens.isEmpty ? .soft : .hard
        if !response.revocation.otherIssuerAnchors.isEmpty {
            // The relying party trusts the other issuer of the `status-list-other-issuer` fault too.
            let store = environment.configuration.trustStore
            environment.configuration.trustStore = TrustStore(anchors: store.anchors + response.revocation.otherIssuerAnchors,
                                                              allowNonSelfSignedAnchors: store.allowsNonSelfSignedAnchors,
                                                              provenance: store.provenance)
        }
        guard let state else {
            return DeviceResponseVerifier(configuration: environment.configuration).verify(
                deviceResponse: response.bytes, transcript: response.transcript, readerKey: response.readerKey, request: policy, at: time)
        }
        guard let flow = try registry.formats.flows(environment).first(where: { $0.format == format }) else {
            throw SimulationError.invalidOption("no request flow is registered for \(format.rawValue)")
        }
        return flow.verify(response: response.postedText, state: state, policy: policy, at: time)
    }
}

extension SimulatedResponse {
    /// The response as a client posts it to a relying party's server: base64 of Apple's `encryptedData`, the Annex C
    /// `response` string, the OpenID4VP DC API result JSON, or base64 of a bare DeviceResponse.
    public var postedText: String {
        textAnswer ?? Data(bytes).base64EncodedString()
    }
}
