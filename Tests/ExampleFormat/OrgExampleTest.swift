import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTrust
import Verifier

/// `org-example-test`: a format that exists only in the tests, to prove a format is local to its own definitions. A
/// bare DeviceResponse (base64url) answered through the Digital Credentials API under the made-up protocol
/// `org-example-test-v1`, over a transcript binding the page's origin and a nonce the relying party made.
extension VerificationReport.Format {
    package static let orgExampleTest = Self(registering: "org-example-test")
}

extension FormatDescriptor {
    package static let orgExampleTest = FormatDescriptor(
        format: .orgExampleTest, title: "Example test format", documentation: "none (tests only)", checks: [], codes: [],
        wire: .digitalCredentials(["org-example-test-v1"], wholeCredential: false), bindsOrigin: true,
        flow: { _, verifier in OrgExampleTestFlow(verifier: verifier) })
}

extension FormatRegistry {
    /// The built-in formats and `org-example-test`.
    package static let withExample = FormatRegistry.standard.adding(.orgExampleTest)
}

/// The example format's request flow: a nonce per request, kept with the origin.
package struct OrgExampleTestFlow: RequestFlow {
    let verifier: ResponseVerifier

    package init(verifier: ResponseVerifier) { self.verifier = verifier }

    package var format: VerificationReport.Format { .orgExampleTest }

    /// What a request keeps: its nonce (base64url) and the page's origin.
    package struct Kept: Codable {
        let nonce: String
        let origin: String

        package init(nonce: [UInt8], origin: String) {
            self.nonce = Base64URL.encode(nonce)
            self.origin = origin
        }
    }

    /// The transcript the device signs: `[null, null, ["org-example-test", origin, nonce]]`.
    package static func transcript(origin: String, nonce: [UInt8]) -> SessionTranscript {
        SessionTranscript(built: .array([.null, .null, .array([.text("org-example-test"), .text(origin), .bytes(nonce)])]))
    }

    package func prepare(policy: RequestPolicy, origin: String?) throws(VerificationError) -> PreparedRequest {
        guard let origin else { throw VerificationError(.inputMalformed, "an org-example-test request is made for a page's origin") }
        let nonce = SecureRandom.bytes(16)
        return PreparedRequest(state: try KeptState(Kept(nonce: nonce, origin: origin)), publicFields: [("nonce", .string(Base64URL.encode(nonce)))])
    }

    package func verify(response: String, state: KeptState, policy: RequestPolicy?, at time: Date,
                noting lookups: RevocationLookups?) -> VerificationReport {
        let kept: Kept
        do { kept = try state.decode(Kept.self, format: format) } catch { return verifier.rejected(format, error) }
        guard let nonce = Base64URL.decodeStrict(kept.nonce) else {
            return verifier.rejected(format, VerificationError(.inputMalformed, "the kept org-example-test nonce is not base64url"))
        }
        let input = OrgExampleTestAdapter.Input(text: response, transcript: Self.transcript(origin: kept.origin, nonce: nonce))
        return verifier.verify(OrgExampleTestAdapter(), input, request: policy, at: time, noting: lookups)
    }
}

/// The example format's front door: base64url text to one DeviceResponse.
struct OrgExampleTestAdapter: FormatAdapter {
    struct Input {
        let text: String
        let transcript: SessionTranscript
    }

    static let format = VerificationReport.Format.orgExampleTest
    static let acceptsDeviceMac = false

    func inputSize(_ input: Input) -> (bytes: Int, isText: Bool) { (input.text.utf8.count, true) }

    func open(_ input: Input, in run: inout PipelineRun) -> OpenedResponse? {
        do throws(VerificationError) {
            guard let bytes = Base64URL.decodeStrict(input.text) else {
                throw VerificationError(.inputMalformed, "the org-example-test response is not base64url")
            }
            let item = try run.decode(bytes, what: "DeviceResponse", code: .inputMalformed)
            return OpenedResponse(deviceResponse: item, transcript: input.transcript)
        } catch {
            run.log.fail(.responseDecode, error.code, error.message)
            return nil
        }
    }
}
