import CryptoCore
import Foundation
import MdocModel
import MdocTesting
import Verifier

/// The relying party's own request flows, in-process: for each case the flow of the case's format prepares a request
/// as the relying party's server would (`RequestFlow.prepare(policy:origin:)`), the kit's wallet answers it with the
/// case's faults, and the flow verifies the answer at the corpus's time. No server, no network: a relying party runs
/// the corpus against its own `FlowEnvironment` (its verifier options, request policy and keys) from a unit test.
///
/// The environment's trust store gains the corpus's IACA (a seeded test PKI; add nothing else for a run). Formats
/// without a request flow (a bare DeviceResponse) do not apply, nor do cases that need revocation lists or a
/// server's memory of consumed requests.
public struct RequestFlowTarget: ConformanceTarget {
    let flows: [any RequestFlow]
    let corpus: ConformanceCorpus
    let material: ConformanceCorpus.Material
    let relyingParty: RelyingPartyValues

    /// A target for the flows `environment` configures, answering with `corpus`'s cases. The Apple merchant key is
    /// the public half of the environment's first recipient key; its merchant and team IDs are the environment's.
    public init(environment: FlowEnvironment, corpus: ConformanceCorpus, origin: String = "https://shop.example") throws(ConformanceError) {
        self.corpus = corpus
        material = try ConformanceError.material(of: corpus)
        var environment = environment
        let store = environment.configuration.trustStore
        environment.configuration.trustStore = TrustStore(anchors: store.anchors + material.pki.trustStore.anchors,
                                                          allowNonSelfSignedAnchors: store.allowsNonSelfSignedAnchors,
                                                          provenance: store.provenance)
        do {
            flows = try FormatRegistry.flows(environment)
        } catch {
            throw ConformanceError("the environment's flows cannot be built: \(error.message)")
        }
        relyingParty = RelyingPartyValues(origin: origin, merchantKey: environment.recipientKeys.first?.publicKey,
                                          merchantID: environment.merchantID, teamID: environment.teamID)
    }

    /// How the report names the target.
    public var name: String { "request flows in-process" }

    /// A flow keeps no memory of consumed requests, and checks revocation against the environment's own source.
    public var unsupported: Set<ConformanceCase.Requirement> { [.state, .revocation] }

    /// Formats without a flow, and Apple without a recipient key, do not apply.
    public func notApplicable(_ testCase: ConformanceRunCase) -> String? {
        guard let format = ResponseFormat(rawValue: testCase.format), flows.contains(where: { $0.format == format }) else {
            return "the environment has no request flow for \(testCase.format)"
        }
        return relyingParty.missing(for: format, option: "a recipient key in the environment")
    }

    /// Prepares the request, answers it as the kit's wallet and verifies the answer through the flow.
    public func observe(_ testCase: ConformanceRunCase) -> ConformanceObservation {
        guard let libraryCase = testCase.libraryCase, let format = ResponseFormat(rawValue: testCase.format),
              let flow = flows.first(where: { $0.format == format }) else {
            return .error("the case is not in this kit's catalogue")
        }
        let policy = corpus.requestPolicy(for: libraryCase)
        do {
            let prepared = try flow.prepare(policy: policy, origin: relyingParty.origin)
            var fields = prepared.publicFields
            // As the server publishes it: a flow that does not name its protocol uses the format's default one.
            if let wireProtocol = format.descriptor?.wire.dcAPIProtocols.first, !fields.contains(where: { $0.0 == "protocol" }) {
                fields.append(("protocol", .string(wireProtocol)))
            }
            let published = (try? JSONSerialization.jsonObject(with: Data(JSONValue.object(fields).serializedBytes()))) as? [String: Any] ?? [:]
            let target = try relyingParty.walletTarget(format) { name in
                var found: Any? = published
                for key in VerifyServerTarget.publishedPaths[name] ?? [name] { found = (found as? [String: Any])?[key] }
                guard let found else { throw TargetFailure(description: "the \(format.rawValue) request has no \(name)") }
                return found
            }
            let answer = try corpus.answer(libraryCase, to: target, material: material)
            let report = flow.verify(response: answer.postedText, state: prepared.state, policy: policy, at: corpus.time)
            let codes = Array(Set(report.errors.map(\.code.rawValue))).sorted()
            return .verdict(report.verified ? .accept : .reject, codes: report.verified ? [] : codes, detail: "")
        } catch let failure as TargetFailure {
            return .error(failure.description)
        } catch let error as VerificationError {
            return .error("the flow cannot prepare the request: \(error.code.rawValue): \(error.message)")
        } catch {
            return .error("\(error)")
        }
    }
}
