import ArgumentParser
import CryptoCore
import Foundation
import MdocModel
import MdocTesting
import Verifier
import VerifyServer

/// Apple's signed sample as the load's workload: every request is bound to the sample's nonce, so each verify
/// call runs the full pipeline (HPKE, issuer signature and chain, digests, device signature) and verifies.
enum SampleServer {
    /// The sample's test key and test IACA are written to `folder` for the server to load, as an operator's files are.
    /// How long a soak's requests stay valid, and (as `requestTTL`) how long after expiry the purger keeps them: short,
    /// so the store holds a steady window of requests instead of every request of the run.
    static let requestLifetime: TimeInterval = 20

    static func configuration(store: StoreLocation, folder: URL) throws -> ServerConfiguration {
        let key = folder.appendingPathComponent("merchant_encryption.key")
        let root = folder.appendingPathComponent("issuer_root.crt")
        try Data(AppleSignedSample.merchantKeyPEM.utf8).write(to: key)
        try Data(AppleSignedSample.issuerRootPEM.utf8).write(to: root)
        var configuration = ServerConfiguration.testing(
            keyPaths: [key.path], trustStorePaths: [root.path],
            merchantID: AppleSignedSample.merchantID, teamID: AppleSignedSample.teamID,
            verificationTime: AppleSignedSample.time, store: store)
        configuration.requestTTL = requestLifetime
        configuration.purgeInterval = 5
        return configuration
    }

    /// A request bound to the sample's nonce; load runs seed all of theirs first, so they live an hour by default.
    static func request(lifetime: TimeInterval = 3600) throws -> StoredRequest {
        let now = Date()
        return StoredRequest(id: StoredRequest.newID(), format: .appleApp, policy: policy,
                             state: try AppleAppFlow.state(nonce: AppleSignedSample.nonce), createdAt: now, expiresAt: now.addingTimeInterval(lifetime))
    }

    static let envelope = Data(AppleSignedSample.envelope).base64EncodedString()

    static func verifyBody(_ id: String) -> String {
        "{\"requestId\":\"\(id)\",\"response\":\"\(envelope)\"}"
    }

    /// Every element the sample returns.
    static let policy = RequestPolicy(documents: [.init(docType: "org.iso.18013.5.1.mDL", nameSpaces: [
        "org.iso.18013.5.1": Dictionary(uniqueKeysWithValues: [
            "given_name", "family_name", "portrait", "birth_date", "age_over_21", "issuing_country", "issuing_jurisdiction",
            "resident_city", "resident_state", "resident_postal_code", "resident_country", "resident_address", "expiry_date",
            "driving_privileges", "document_number", "issuing_authority", "un_distinguishing_sign", "sex",
        ].map { ($0, false) }),
        "org.iso.18013.5.1.aamva": Dictionary(uniqueKeysWithValues: [
            "given_name_truncation", "family_name_truncation", "aka_given_name", "aka_family_name", "domestic_driving_privileges",
        ].map { ($0, false) }),
    ])])
}

/// The library alone on the same sample: one thread, the verifier the server builds, no HTTP or store.
enum LibraryBench {
    static func verificationsPerSecond(seconds: Double) throws -> Double {
        let verifier = try AppleAppVerifier(
            configuration: VerifierConfiguration(trustStore: TrustStore(anchors: [try AppleSignedSample.issuerRoot()]), testMode: true),
            keys: [try AppleSignedSample.merchantKey()])
        let session = AppleAppSession(nonce: AppleSignedSample.nonce, merchantID: AppleSignedSample.merchantID,
                                      teamID: AppleSignedSample.teamID)
        let (envelope, time) = (AppleSignedSample.envelope, AppleSignedSample.time)  // decoded from hex once, not per call
        let clock = ContinuousClock()
        guard verifier.verify(encryptedData: envelope, session: session, at: time).verified else {
            throw ValidationError("the bundled sample did not verify")
        }
        var count = 0
        let start = clock.now
        let budget = Duration.milliseconds(Int64(seconds * 1000))
        while clock.now - start < budget {
            _ = verifier.verify(encryptedData: envelope, session: session, at: time)
            count += 1
        }
        let (s, atto) = (clock.now - start).components
        return Double(count) / (Double(s) + Double(atto) / 1e18)
    }
}
