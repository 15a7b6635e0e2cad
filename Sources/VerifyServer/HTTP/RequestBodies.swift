import Foundation
import Hummingbird
import Mdoc
import NIOCore
import VerifyServerAPI

/// Reads and decodes JSON bodies within the configured size limit and time.
struct BodyReader: Sendable {
    let limit: Int
    /// Seconds the whole body may take to arrive (a client trickling it holds a connection otherwise).
    let timeout: TimeInterval
    /// Bounds the time the body takes to arrive.
    let timeLimit: TimeLimit

    /// The whole body; 413 when it is (or announces to be) larger than the limit, 408 when it is too slow.
    func collect(_ request: Request) async throws(APIError) -> ByteBuffer {
        let tooLarge = APIError.tooLarge(limit: limit)
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw tooLarge
        }
        let (body, limit) = (request.body, self.limit)
        do {
            return try await timeLimit.run(.milliseconds(Int64(timeout * 1000))) { try await body.collect(upTo: limit) }
        } catch is NIOTooManyBytesError {
            throw tooLarge
        } catch is TimeLimit.Exceeded {
            throw APIError.bodyTimeout(timeout)
        } catch {
            throw APIError.malformed("request body could not be read")
        }
    }

    func decode<T: Decodable>(_ type: T.Type, from request: Request) async throws(APIError) -> T {
        try Self.decode(type, json: Data(try await collect(request).readableBytesView))
    }

    /// Decodes a collected body; a decoding failure becomes 400 `input.malformed` naming the field, never its value.
    static func decode<T: Decodable>(_ type: T.Type, json: Data) throws(APIError) -> T {
        do {
            return try JSONBody.decode(type, json: json)
        } catch {
            throw APIError.malformed(error.message, code: error.code)
        }
    }
}
