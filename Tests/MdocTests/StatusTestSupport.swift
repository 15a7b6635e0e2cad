import CBOR
import CryptoCore
import KitCertificates
import Foundation
@testable import Mdoc
@testable import MdocModel
@testable import MdocTrust
import MdocTesting
import Synchronization

/// A simulated mDL (a bare DeviceResponse) verified by `MdocVerifier` with the revocation source and policy a test
/// gives, for the `revocation.status` tests.
enum StatusFixture {
    static let time = Date(timeIntervalSince1970: 1_780_315_200)  // 2026-06-01T12:00:00Z
    static let day: TimeInterval = 86_400
    static let transcript = SessionTranscript(built: .array([.null, .null, .text("StatusFixture")]))
    static let statusURI = "https://status.example/lists/1"
    static let identifierURI = "https://status.example/identifiers/1"
    static let index: UInt64 = 17
    static let identifier = Array("document-17".utf8)

    /// The response's own issuer.
    static func pki(seed: UInt64 = 61) throws -> TestPKI { try TestPKI(seed: seed, at: time) }

    /// A response whose MSO names `statusURI` (index 17) and, when `identifiers` is set, `identifierURI`.
    static func response(_ pki: TestPKI, identifiers: Bool = false, faults: [Fault] = [],
                         configure: (inout SimulationOptions) -> Void = { _ in }) throws -> SimulatedResponse {
        var options = SimulationOptions(time: time, faults: faults)
        options.statusList = .init(uri: statusURI, index: index)
        if identifiers { options.identifierList = .init(uri: identifierURI, id: identifier) }
        configure(&options)
        return try MdocSimulator(pki: pki).simulate(.deviceResponse(transcript), options: options)
    }

    /// A status list at `statusURI` in which every entry is VALID, issued an hour ago, expiring in a day.
    static func statusList() -> StatusListTokenBuilder {
        StatusListTokenBuilder(uri: statusURI, issuedAt: time - 3600, expires: time + day)
    }

    /// An identifier list at `identifierURI` listing `statuses`, issued an hour ago, expiring in a day.
    static func identifierList(_ statuses: [[UInt8]: UInt64] = [:]) -> StatusListTokenBuilder {
        .identifierList(uri: identifierURI, statuses: statuses, issuedAt: time - 3600, expires: time + day)
    }

    /// Signs `builder` with `pki`'s status list signer (the one its IACA issued).
    static func sign(_ builder: StatusListTokenBuilder, by pki: TestPKI) throws -> [UInt8] {
        let signer = try pki.issueStatusListSigner(at: time)
        return try builder.sign(chain: [signer.certificate], key: signer.key)
    }

    /// `pki`'s CRL (nothing revoked) and the tokens, keyed by the URI each is served at.
    static func source(_ pki: TestPKI, tokens: [String: [UInt8]]) throws -> StaticRevocationSource {
        let crl = try CRLBuilder(thisUpdate: time - day, nextUpdate: time + day).sign(issuer: pki.iaca, issuerKey: pki.iacaKey)
        return try StaticRevocationSource(crls: [RevocationMaterial(crl, origin: "test CRL")],
                                          fetched: tokens.mapValues { RevocationMaterial($0, origin: "test list") })
    }

    /// Verifies `response` with `MdocVerifier` at `time`.
    static func verify(_ response: SimulatedResponse, trust: TrustStore, source: (any RevocationSource)?,
                       policy: RevocationPolicy = .hard, at time: Date = time) throws -> CheckLog {
        let verifier = MdocVerifier(trustStore: trust, options: MdocVerificationOptions(revocation: policy, revocationSource: source))
        return verifier.verify(deviceResponse: try CBORDecoder.decode(response.bytes), transcript: transcript, time: time,
                               request: nil).log
    }

    /// The `revocation.status` lines.
    static func statusLines(_ log: CheckLog) -> [CheckResult] { log.checks.filter { $0.id == .revocationStatus } }
}

/// A revocation source that records every lookup and answers from `inner`.
final class RecordingRevocationSource: RevocationSource {
    let inner: any RevocationSource
    private let asked = Mutex<[String]>([])

    init(_ inner: any RevocationSource) { self.inner = inner }

    /// The URIs looked up so far, in order.
    var statusLookups: [String] { asked.withLock { $0 } }

    func crls(for certificate: Certificate) -> [RevocationMaterial<CertificateRevocationList>] { inner.crls(for: certificate) }

    func statusToken(uri: String) -> Result<RevocationMaterial<StatusToken>, RevocationUnavailable> {
        asked.withLock { $0.append(uri) }
        return inner.statusToken(uri: uri)
    }
}
