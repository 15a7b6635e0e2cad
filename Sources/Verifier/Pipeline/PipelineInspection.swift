import CryptoCore
import CBOR

/// Hands the decrypted DeviceResponses of the verifications run inside `collect` to the caller, whatever their
/// outcome. Only `verify-server`'s inspector uses it (a development tool, enabled only in test mode): it shows
/// content that has not passed the checks, which is why it never reaches a report and is not public API.
package final class PipelineInspection: Sendable {
    @TaskLocal static var current: PipelineInspection?

    private let opened = Locked<[ArraySlice<UInt8>]>([])

    package init() {}

    /// Runs `body`; every DeviceResponse a pipeline opens meanwhile (on this task) is recorded, as received.
    package func collect<T>(_ body: () throws -> T) rethrows -> T {
        try Self.$current.withValue(self, operation: body)
    }

    /// The DeviceResponses' bytes, in the order they were opened.
    package var deviceResponses: [ArraySlice<UInt8>] { opened.withLockedValue { $0 } }

    func record(_ responses: [CBORItem]) {
        opened.withLockedValue { $0 += responses.map(\.raw) }
    }
}
