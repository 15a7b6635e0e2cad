import Foundation
import Mdoc
import MdocModel
import TestSupport
import VerifyServer

/// Apple's signed in-app sample as the server sees it: the sample's merchant and team IDs, its (test) decryption
/// key and IACA, test mode on and the verification time pinned inside the sample's validity.
enum AppleSample {
    static let keyPath = VectorFiles.url(AppleSampleVector.folder + "merchant_encryption.key").path
    static let rootPath = VectorFiles.url(AppleSampleVector.folder + "issuer_root.crt").path

    static func configuration(store: StoreLocation = .memory, verificationTime: Date? = AppleSampleVector.validTime) -> ServerConfiguration {
        var configuration = ServerConfiguration.testing(keyPaths: [keyPath], trustStorePaths: [rootPath], merchantID: AppleSampleVector.merchantID,
                                                        teamID: AppleSampleVector.teamID, verificationTime: verificationTime, store: store)
        configuration.storeTimeout = SimulatedWallet.storeTimeout
        return configuration
    }

    static var envelope: [UInt8] { AppleSampleVector.envelope }
    static var envelopeBase64: String { Data(envelope).base64EncodedString() }

    /// Every element the sample returns, so the policy check passes.
    static let policy = RequestPolicy(documents: [.init(docType: "org.iso.18013.5.1.mDL",
                                                        nameSpaces: AppleSampleVector.requestedNameSpaces)])

    /// A stored request bound to the sample's nonce, as if `POST /v1/requests` had issued it.
    static func request(id: String = StoredRequest.newID(), policy: RequestPolicy = policy, now: Date = Date(),
                        ttl: TimeInterval = 300) -> StoredRequest {
        StoredRequest(id: id, format: .appleApp, policy: policy, state: .strings(["nonce": Base64URL.encode(AppleSampleVector.nonce)]),
                      createdAt: now, expiresAt: now.addingTimeInterval(ttl))
    }

    static func verifyBody(_ requestId: String, response: String = envelopeBase64) -> String {
        verifyJSON(requestId, response: response)
    }

    static let createBody = """
        {"format":"apple-app","documents":[{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"family_name":true,"age_over_21":false}}}]}
        """
}
