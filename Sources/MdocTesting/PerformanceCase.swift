import CryptoCore
import Foundation
import Mdoc
import MdocModel
import Verifier

/// A response the benchmarks verify over and over: `mdocverify bench` and the package-benchmark suite
/// (`Benchmarks/Stages`) measure the same ones.
public struct PerformanceCase: Sendable {
    /// The benchmark responses.
    public enum Name: String, CaseIterable, Sendable {
        /// Apple's signed sample: P-256 issuer, two namespaces, 22 disclosed elements.
        case apple
        /// A simulated Apple-format response: P-384 issuer (ES384), three namespaces, 30 disclosed elements.
        case large
    }

    /// One line describing the response, for benchmark output.
    public let title: String
    /// The verifier configured for the response (its trust anchor and merchant key).
    public let verifier: AppleAppVerifier
    /// `PKIdentityDocument.encryptedData`.
    public let encryptedData: [UInt8]
    /// The request the response answers.
    public let session: AppleAppSession
    /// The verification time, inside the response's validity.
    public let time: Date
    /// The curve of the issuer's document signer.
    public let issuerCurve: Curve
    /// How many elements the response discloses.
    public let elementCount: Int
    /// The bare DeviceResponse inside the envelope and its session transcript, for the simulated case (the stage
    /// benchmarks decode and check it without HPKE); nil for Apple's sample.
    public let deviceResponse: (bytes: [UInt8], transcript: SessionTranscript)?

    /// Builds the named case. `trustStore`'s anchors are added to Apple's sample's test IACA, as a server holding a
    /// production bundle would; the simulated case trusts its own test PKI only.
    public static func make(_ name: Name, trustStore: TrustStore? = nil) throws -> PerformanceCase {
        switch name {
        case .apple: return try apple(trustStore: trustStore)
        case .large: return try large()
        }
    }

    /// Verifies the response once.
    public func verify() -> VerificationReport {
        verifier.verify(encryptedData: encryptedData, session: session, at: time)
    }

    private static func apple(trustStore: TrustStore?) throws -> PerformanceCase {
        let sample = AppleSignedSample.self
        let root = try sample.issuerRoot()
        let store = trustStore.map { TrustStore(anchors: $0.anchors + [root], allowNonSelfSignedAnchors: true, provenance: $0.provenance) }
            ?? TrustStore(anchors: [root])
        let verifier = try AppleAppVerifier(configuration: VerifierConfiguration(trustStore: store, testMode: true),
                                            keys: [try sample.merchantKey()])
        // Not verified here: `mdocverify bench` times the first verification after start-up, which must find every
        // cache cold. PerformanceCaseTests checks the counts against the sample's verified document.
        return PerformanceCase(
            title: "Apple sample (P-256 issuer, 2 namespaces, 22 elements)", verifier: verifier, encryptedData: sample.envelope,
            session: AppleAppSession(nonce: sample.nonce, merchantID: sample.merchantID, teamID: sample.teamID),
            time: sample.time, issuerCurve: .p256, elementCount: 22, deviceResponse: nil)
    }

    /// The kit's simulator, P-384 issuer: the mDL and AAMVA namespaces without the age elements, and a third namespace.
    private static func large() throws -> PerformanceCase {
        guard let time = RFC3339.parseDateTime("2026-06-01T00:00:00Z") else { throw SimulationError.invalidOption("bad benchmark time") }
        let pki = try TestPKI(seed: 11, curve: .p384, at: time)
        let merchantKey = try pki.seed.key("bench-merchant", curve: .p256)
        let request = AppleAppRequest(merchantKey: merchantKey.publicKey, nonce: pki.seed.bytes("bench-nonce", count: 32),
                                      merchantID: "bench.merchant", teamID: "BENCHTEAM")
        let thirdNameSpace = "com.example.loyalty.1"
        let content = (SampleContent.elements(for: DocType.mDL, at: time) ?? []).filter { !$0.identifier.hasPrefix("age_") } + [
            DataElement(thirdNameSpace, "member_number", .text("LX-2231-0087")),
            DataElement(thirdNameSpace, "tier", .text("gold")),
            DataElement(thirdNameSpace, "member_since", .tagged(1004, .text("2019-05-01"))),
        ]
        var options = SimulationOptions(time: time)
        options.content = content
        options.statusList = nil
        let response = try MdocSimulator(pki: pki).simulate(.appleApp(request), options: options)
        let verifier = try AppleAppVerifier(configuration: VerifierConfiguration(trustStore: pki.trustStore), keys: [merchantKey])
        let namespaces = Set(content.map { $0.nameSpace }).count
        return PerformanceCase(
            title: "simulated (P-384 issuer, \(namespaces) namespaces, \(content.count) elements)", verifier: verifier,
            encryptedData: response.bytes,
            session: AppleAppSession(nonce: request.nonce, merchantID: request.merchantID, teamID: request.teamID),
            time: time, issuerCurve: .p384, elementCount: content.count,
            deviceResponse: (response.deviceResponse, response.transcript))
    }
}
