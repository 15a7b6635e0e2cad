import Foundation
import Hummingbird
import Mdoc
import NIOCore

/// `POST /v1/requests` body.
struct CreateRequestBody: Decodable {
    var format: String
    var documents: [RequestPolicy.DocumentRequest]
    var origin: String?
}

/// `POST /v1/verify` body.
struct VerifyRequestBody: Decodable {
    var requestId: String
    var response: String
}

/// Reads and decodes JSON bodies within the configured size limit and time.
struct BodyReader: Sendable {
    let limit: Int
    /// Seconds the whole body may take to arrive (a client trickling it holds a connection otherwise).
    let timeout: TimeInterval
    /// Waits for `timeout` to pass.
    let deadline: @Sendable (Duration) async throws -> Void

    private struct TimedOut: Error {}

    /// The whole body; 413 when it is (or announces to be) larger than the limit, 408 when it is too slow.
    func collect(_ request: Request) async throws(APIError) -> ByteBuffer {
        let tooLarge = APIError.tooLarge(limit: limit)
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw tooLarge
        }
        let (body, limit, timeout, deadline) = (request.body, self.limit, self.timeout, self.deadline)
        do {
            return try await withThrowingTaskGroup(of: ByteBuffer.self) { group in
                group.addTask { try await body.collect(upTo: limit) }
                group.addTask {
                    try await deadline(.milliseconds(Int64(timeout * 1000)))
                    throw TimedOut()
                }
                defer { group.cancelAll() }
                guard let first = try await group.next() else { throw TimedOut() }
                return first
            }
        } catch is NIOTooManyBytesError {
            throw tooLarge
        } catch is TimedOut {
            throw APIError.bodyTimeout(timeout)
        } catch {
            throw APIError.malformed("request body could not be read")
        }
    }

    func decode<T: Decodable>(_ type: T.Type, from request: Request) async throws(APIError) -> T {
        let buffer = try await collect(request)
        do {
            return try JSONDecoder().decode(type, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw APIError.malformed(Self.describe(error))
        } catch {
            throw APIError.malformed("body is not valid JSON")
        }
    }

    /// Names the offending field without echoing any value.
    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context, _ last: (any CodingKey)? = nil) -> String {
            let keys = context.codingPath + (last.map { [$0] } ?? [])
            return keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
                .replacingOccurrences(of: ".[", with: "[")
        }
        switch error {
        case .keyNotFound(let key, let context): return "body is missing the field `\(path(context, key))`"
        case .typeMismatch(_, let context): return "body field `\(path(context))` has the wrong type"
        case .valueNotFound(_, let context): return "body field `\(path(context))` is null"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "body is not valid JSON" : "body field `\(path(context))` is invalid"
        @unknown default: return "body does not have the documented shape"
        }
    }
}
