import Hummingbird
import Mdoc
import Verifier

/// A rejection answered before (or instead of) a verification report: `{"error": {"code", "message"}}`.
struct APIError: Error, Sendable {
    let status: HTTPResponse.Status
    let code: ErrorCode
    let message: String

    init(_ status: HTTPResponse.Status, _ code: ErrorCode, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    static func storeUnavailable() -> APIError {
        APIError(.serviceUnavailable, .storeUnavailable, "the request store is not reachable; try again")
    }

    var response: Response {
        Response.json(status, .object([("error", .object([("code", .string(code.rawValue)), ("message", .string(message))]))]))
    }
}

extension Response {
    static func json(_ status: HTTPResponse.Status, _ value: JSONValue) -> Response {
        Response(status: status, headers: [.contentType: "application/json"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: value.serialized())))
    }
}
