import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import MdocTestingServer
import Verifier
import VerifyServer

/// A wallet played by MdocTesting: a seeded test PKI whose IACA the server trusts, a merchant key the server
/// holds, and responses built for the server's own nonce or EncryptionInfo.
struct SimulatedWallet: Sendable {
    static let merchantID = "merchant.com.example.verify"
    static let teamID = "ABCDE12345"
    static let origin = "https://shop.example"
    static let nameSpace = "org.iso.18013.5.1"

    let pki: TestPKI
    let merchantKey: PrivateKey
    let folder: URL
    let time: Date
    /// Where the MSO's status list and the document signer's CRL distribution point are published (nil: the kit's
    /// defaults, which are never fetched: configurations from this wallet do not fetch unless a test says so).
    var listServer: RevocationListServer?

    /// Elements the wallet discloses and the requests ask for.
    static let policy = RequestPolicy(documents: [.init(docType: DocType.mDL, nameSpaces: [
        nameSpace: ["family_name": true, "given_name": false, "age_over_21": false],
    ])])
    static let elements = [ElementID(nameSpace, "family_name"), ElementID(nameSpace, "given_name"), ElementID(nameSpace, "age_over_21")]
    static func createBody(_ format: String) -> String {
        """
        {"format":"\(format)","origin":"\(origin)","documents":[{"docType":"\(DocType.mDL)","nameSpaces":{"\(nameSpace)":\
        {"family_name":true,"given_name":false,"age_over_21":false}}}]}
        """
    }

    /// The certificate the server is told to trust.
    enum Anchor {
        case iaca
        case documentSigner
        /// The CA the `intermediate-ca` fault has issue the document signer.
        case intermediate
    }

    /// Writes the anchor (the IACA unless told otherwise) and the merchant key where a server configuration can name
    /// them. `curve` is the issuer's.
    init(time: Date, curve: Curve = .p256, anchor: Anchor = .iaca) throws {
        self.time = time
        pki = try TestPKI(seed: 7, curve: curve, at: time)
        merchantKey = try PrivateKey.generate(.p256)
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("verify-server-wallet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let trusted: Certificate
        switch anchor {
        case .iaca: trusted = pki.iaca
        case .documentSigner: trusted = pki.documentSigner
        case .intermediate: trusted = try pki.issueIntermediateCA(label: "fault", at: time).certificate
        }
        try PEMText.certificate(trusted).write(to: iacaURL, atomically: true, encoding: .utf8)
        try merchantKey.pkcs8PEM().write(to: keyURL, atomically: true, encoding: .utf8)
    }

    var iacaURL: URL { folder.appendingPathComponent("iaca.pem") }
    var keyURL: URL { folder.appendingPathComponent("merchant.pem") }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    /// Production settings (test mode off) trusting the wallet's IACA; the in-memory store is handed in by the test.
    /// The test servers' storeTimeout: an SQLite file's syncs while the whole suite runs on two cores can stall for
    /// seconds, which must not fail a start or turn an answer into a 503. The suites about timeouts set their own.
    static let storeTimeout: TimeInterval = 30

    func configuration(testMode: Bool = false, pinnedTime: Bool = false) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.port = 0
        // The tests read /metrics and the detailed /readyz on the one port they know (OperatorListenerTests covers the
        // private listener).
        configuration.operatorListener = .shared
        configuration.storeTimeout = Self.storeTimeout
        configuration.testMode = testMode
        configuration.merchantID = Self.merchantID
        configuration.teamID = Self.teamID
        configuration.decryptionKeyPaths = [keyURL.path]
        configuration.trustStorePaths = [iacaURL.path]
        configuration.verificationTime = pinnedTime ? time : nil
        configuration.purgeInterval = 3600
        configuration.revocationFetch = false
        // The server tests drive the deprecated routes too, also beside API keys (LegacyAPITests covers the default).
        configuration.legacyAPI = .besideAPIKeys
        return configuration
    }

    /// The CRL and status list the kit issues for `faults` (the same for every response of this wallet).
    func revocationMaterial(faults: [Fault]) throws -> SimulatedRevocation {
        let transcript = SessionTranscript(built: .array([.null, .null, .text("revocation material")]))
        return try MdocSimulator(pki: pki).simulate(.deviceResponse(transcript),
                                                    options: options(faults.filter { $0.formats.contains(.deviceResponse) })).revocation
    }

    /// Writes the CRL and status list the kit issues for `faults` (the same for every response of this wallet) and
    /// points the configuration at them, with the hard revocation policy.
    func withRevocationFiles(_ configuration: ServerConfiguration, faults: [Fault]) throws -> ServerConfiguration {
        let material = try revocationMaterial(faults: faults)
        let crlURL = folder.appendingPathComponent("iaca.crl")
        try material.crl.pemEncoded.write(to: crlURL, atomically: true, encoding: .utf8)
        var configuration = configuration
        configuration.crlPaths = [crlURL.path]
        for (index, token) in material.tokens.values.enumerated() {
            let url = folder.appendingPathComponent("status-list-\(index).cwt")
            try Data(token).write(to: url)
            configuration.statusListPaths.append(url.path)
        }
        configuration.revocation = .hard
        return configuration
    }

    func options(_ faults: [Fault] = []) -> SimulationOptions {
        var options = SimulationOptions(time: time, faults: faults)
        options.elements = Self.elements
        if let listServer {
            options.statusList = .init(uri: listServer.url("/lists/1"), index: 17)
            options.crlDistributionPoint = listServer.url("/crl")
        }
        return options
    }

    /// base64 of the Apple envelope for the server's nonce.
    func appleResponse(nonce: String, faults: [Fault] = []) throws -> String {
        guard let nonceBytes = Base64URL.decode(nonce) else { throw SimulationError.unsupported("nonce is not base64url") }
        let request = AppleAppRequest(merchantKey: merchantKey.publicKey, nonce: nonceBytes, merchantID: Self.merchantID, teamID: Self.teamID)
        let response = try MdocSimulator(pki: pki).simulate(.appleApp(request), options: options(faults))
        return Data(response.bytes).base64EncodedString()
    }

    /// The `data.response` string for the server's EncryptionInfo, as a wallet that sees only the request builds it.
    func annexCResponse(encryptionInfo: String, faults: [Fault] = []) throws -> String {
        let response = try MdocSimulator(pki: pki).simulate(.annexCEncryptionInfo(encryptionInfo, origin: Self.origin), options: options(faults))
        guard let text = response.annexCResponse else { throw SimulationError.unsupported("no Annex C response text") }
        return text
    }

    /// The DC API result for the server's OpenID4VP request (`protocol` and `data` from `POST /v1/requests`), as a
    /// wallet that sees only the request builds it.
    func openID4VPResponse(protocolIdentifier: String, data: Any, faults: [Fault] = []) throws -> String {
        let text = String(decoding: try JSONSerialization.data(withJSONObject: data), as: UTF8.self)
        let request = try OpenID4VPRequest(protocolIdentifier: protocolIdentifier, data: text, origin: Self.origin)
        let response = try MdocSimulator(pki: pki).simulate(.openID4VP(request), options: options(faults))
        guard let posted = response.openID4VPResponse else { throw SimulationError.unsupported("no OpenID4VP response text") }
        return posted
    }
}
