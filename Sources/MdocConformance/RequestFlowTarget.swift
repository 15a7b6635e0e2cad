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
    let strictProfile: Bool

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
            flows = try corpus.registry.formats.flows(environment)
        } catch {
            throw ConformanceError("the environment's flows cannot be built: \(error.message)")
        }
        strictProfile = environment.configuration.profile == .strict
        relyingParty = RelyingPartyValues(origin: origin, merchantKey: environment.recipientKeys.first?.publicKey,
                                          merchantID: environment.merchantID, teamID: environment.teamID)
    }

    /// How the report names the target.
    public var name: String { "request flows in-process" }

    /// A flow keeps no memory of consumed requests, and checks revocation against the environment's own source;
    /// Annex B's certificate profile as written applies when the environment's profile is strict.
    public var unsupported: Set<ConformanceCase.Requirement> {
        strictProfile ? [.state, .revocation] : [.state, .revocation, .certificateProfile]
    }

    /// Formats without a flow, and Apple without a recipient key, do not apply.
    public func notApplicable(_ testCase: ConformanceRunCase) -> String? {
        guard let format = corpus.registry.formats.format(named: testCase.format), flows.contains(where: { $0.format == format }) else {
            return "the environment has no request flow for \(testCase.format)"
        }
        return relyingParty.missing(for: format, option: "a recipient key in the environment", fetches: true, in: corpus.registry)
    }

    /// Prepares the request, answers it as the kit's wallet and verifies the answer through the flow.
    public func observe(_ testCase: ConformanceRunCase) -> ConformanceObservation {
        guard let libraryCase = testCase.libraryCase, let format = ResponseFormat(rawValue: testCase.format),
              let flow = flows.first(where: { $0.format == format }) else {
            return .error("the case is not in this kit's catalogue")
        }
        let policy = corpus.requestPolicy(for: libraryCase)
        do {
            let prepared = try flow.prepare(policy: policy, context: creation(format, id: testCase.id))
            let target = try walletTarget(format, prepared: prepared) { _, walletNonce in
                do {
                    return try flow.requestObject(state: prepared.state, walletNonce: walletNonce, walletMetadata: nil, at: corpus.time)
                } catch let error as VerificationError {
                    throw TargetFailure(description: "the flow serves no request object: \(error.code.rawValue): \(error.message)")
                }
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

    /// What the flow is given to make a request: the page's origin, the expiry (five minutes past the corpus's time)
    /// and, for a format fetched by reference, wallet URLs the wallet never reaches (the fetch and the post stay
    /// in-process).
    func creation(_ format: ResponseFormat, id: String) -> RequestCreation {
        let base = "https://verifier.example/v1/wallet/" + FormEncoding.encode(id)
        let urls = corpus.registry.formats.descriptor(format)?.wire.byReference == true ? WalletURLs(request: base + "/request", response: base + "/direct_post") : nil
        return RequestCreation(origin: relyingParty.origin, walletURLs: urls, expiresAt: corpus.time.addingTimeInterval(300))
    }

    /// The kit's wallet for the prepared request, reading its public fields as the server publishes them (a flow that
    /// does not name its protocol uses the format's default one) and fetching a request object through `fetch`.
    func walletTarget(_ format: ResponseFormat, prepared: PreparedRequest, fetch: @escaping PublishedRequest.Fetch) throws -> ResponseTarget {
        var fields = prepared.publicFields
        if let wireProtocol = corpus.registry.formats.descriptor(format)?.wire.dcAPIProtocols.first,
           !fields.contains(where: { $0.0 == "protocol" }) {
            fields.append(("protocol", .string(wireProtocol)))
        }
        return try relyingParty.walletTarget(format, fields: .object(fields), in: corpus.registry, fetch: fetch)
    }
}
