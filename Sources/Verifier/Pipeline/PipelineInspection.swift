import CryptoCore
import CBOR

/// Hands the decrypted DeviceResponses of the verifications of one `ResponseVerifier.inspecting(_:)` verifier to the
/// caller, whatever their outcome. Only the inspectors use it (`verify-server`'s page, enabled only in test mode, and
/// `mdocverify inspect`): it shows content that has not passed the checks, which is why it never reaches a report and
/// is not public API.
package final class PipelineInspection: Sendable {
    private let opened = Locked<[ArraySlice<UInt8>]>([])

    package init() {}

    /// The DeviceResponses' bytes, in the order they were opened.
    package var deviceResponses: [ArraySlice<UInt8>] { opened.withLockedValue { $0 } }

    func record(_ responses: [CBORItem]) {
        opened.withLockedValue { $0 += responses.map(\.raw) }
    }
}
