import Mdoc
import MdocModel

/// The issuer allow-list of a `--request` file (`allowedIssuers`) on the command line: read and bounded with the
/// request, narrowed to the trust anchors when a request is created.
enum RequestAllowList {
    /// Why the request file's allow-list cannot be used, or nil: an entry in neither form, over Apple's bounds, or
    /// repeated. `error` is what decoding the file threw.
    static func problem(in path: String, decoding error: any Error) -> UsageFailure? {
        guard case DecodingError.dataCorrupted(let context) = error,
              context.codingPath.first?.stringValue == "allowedIssuers" else { return nil }
        return UsageFailure("request at \(path): \(context.debugDescription)")
    }

    /// `policy` once its allow-list is within bounds.
    static func checked(_ policy: RequestPolicy, path: String) throws -> RequestPolicy {
        do {
            try policy.validateAllowedIssuers()
        } catch {
            throw UsageFailure("request at \(path): \(error.message)")
        }
        return policy
    }

    /// The allow-list narrowed per docType to the anchors in `trust` (the embedded bundle when empty), or nil when the
    /// request names none. An entry no anchor has, or a docType left without one, is a usage failure.
    static func narrowed(_ policy: RequestPolicy, trust: [String]) throws -> [String: [[UInt8]]]? {
        guard !policy.allowedIssuers.isEmpty else { return nil }
        do {
            return try IssuerIdentifiers.narrowed(policy, in: try InputFiles.trustStore(trust))
        } catch let error as VerificationError {
            throw UsageFailure("\(error.code.rawValue): \(error.message)")
        }
    }
}
