import Foundation
import Verifier
import VerifyServerAPI

extension FuzzTargets {
    /// 6. `verify-server`'s request bodies through its own decoders and rules: `POST /v1/requests` (format,
    /// documents, origin → the request policy's limits → the flow's `prepare`) and `POST /v1/verify` (the requestId
    /// rule, then the response through the Apple flow). The HTTP stack around them is Hummingbird's.
    static let serverBody = FuzzTarget("server-body", maxLength: 16 << 10,
                                       "POST /v1/requests and /v1/verify JSON bodies through the server's decoders and rules",
                                       seeds: serverBodySeeds) { input in
        let json = Data(input)
        do {
            let body = try JSONBody.decode(CreateRequestBody.self, json: json)
            let policy = try body.policy()
            let exchanges = [appleExchange, annexCExchange, openID4VPExchange]
            if let format = VerificationReport.Format(rawValue: body.format),
               let flow = exchanges.lazy.compactMap(\.flow).first(where: { $0.format == format }) {
                _ = try flow.prepare(policy: policy, origin: body.origin)
            }
        } catch {
            Invariant.catalogued(error)
        }
        do {
            let body = try JSONBody.decode(VerifyRequestBody.self, json: json)
            try body.validate()
            Invariant.wellFormed(appleExchange.verify(posted: body.response))
        } catch {
            Invariant.catalogued(error)
        }
    }

    static func serverBodySeeds() throws -> [[UInt8]] {
        let apple = Data(appleExchange.response.bytes).base64EncodedString()
        return [
            #"{"format":"annex-c","origin":"https://shop.example","documents":[{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"family_name":false,"age_over_21":true}}}]}"#,
            #"{"format":"apple-app","documents":[{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"portrait":false}}}]}"#,
            #"{"format":"openid4vp","origin":"https://verifier.example","documents":[{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"given_name":true}}}]}"#,
            #"{"requestId":"0f8e6c1a-4b7d-4c2e-9a51-3d2b1c0e9f7a","response":"\#(apple)"}"#,
        ].map { Array($0.utf8) }
    }
}
