import ArgumentParser
import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocTesting
import Verifier

/// One response `bench` verifies over and over, with what its floor is made of.
struct BenchCase {
    enum Name: String, CaseIterable, ExpressibleByArgument {
        /// Apple's signed sample: P-256 issuer, two namespaces, 22 disclosed elements.
        case apple
        /// A simulated Apple-format response: P-384 issuer (ES384), three namespaces, 30 disclosed elements.
        case large
    }

    let title: String
    let verifier: AppleAppVerifier
    let encryptedData: [UInt8]
    let session: AppleAppSession
    let time: Date
    let floor: FloorRecipe

    static func make(_ name: Name, trustStore: TrustStore? = nil) throws -> BenchCase {
        switch name {
        case .apple: return try apple(trustStore: trustStore)
        case .large: return try large()
        }
    }

    /// Apple's sample, trusting its test IACA (plus `trustStore`'s anchors when given, as a server would hold them).
    static func apple(trustStore: TrustStore?) throws -> BenchCase {
        let sample = AppleSignedSample.self
        let root = try sample.issuerRoot()
        let store = trustStore.map { TrustStore(anchors: $0.anchors + [root], allowNonSelfSignedAnchors: true, provenance: $0.provenance) }
            ?? TrustStore(anchors: [root])
        let verifier = try AppleAppVerifier(configuration: VerifierConfiguration(trustStore: store, testMode: true),
                                            keys: [try sample.merchantKey()])
        return BenchCase(
            title: "Apple sample (P-256 issuer, 2 namespaces, 22 elements)", verifier: verifier, encryptedData: sample.envelope,
            session: AppleAppSession(nonce: sample.nonce, merchantID: sample.merchantID, teamID: sample.teamID),
            time: sample.time,
            floor: FloorRecipe(issuerCurve: .p256, issuerDigest: .sha256, issuerMessageBytes: 1300, deviceMessageBytes: 200,
                               ciphertextBytes: sample.envelope.count, valueDigests: 22, valueDigestBytes: 120))
    }

    /// The kit's simulator, P-384 issuer: the mDL and AAMVA namespaces without the age elements, and a third namespace.
    static func large() throws -> BenchCase {
        guard let time = RFC3339.parseDateTime("2026-06-01T00:00:00Z") else { throw UsageFailure("bad bench time") }
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
        return BenchCase(
            title: "simulated (P-384 issuer, \(namespaces) namespaces, \(content.count) elements)", verifier: verifier,
            encryptedData: response.bytes,
            session: AppleAppSession(nonce: request.nonce, merchantID: request.merchantID, teamID: request.teamID),
            time: time,
            floor: FloorRecipe(issuerCurve: .p384, issuerDigest: .sha384, issuerMessageBytes: 3000, deviceMessageBytes: 200,
                               ciphertextBytes: response.bytes.count, valueDigests: content.count, valueDigestBytes: 120))
    }

    func verify() -> VerificationReport {
        verifier.verify(encryptedData: encryptedData, session: session, at: time)
    }
}
