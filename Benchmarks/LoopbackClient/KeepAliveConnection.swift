import NIOCore
import NIOHTTP1
import NIOPosix

extension LoopbackHTTPClient {
    /// One HTTP/1.1 connection kept open for several requests, one at a time (no pipelining), as a browser or a
    /// reverse proxy talks to a server. Use it from one task.
    public struct KeepAliveConnection {
        let host: String
        let port: Int
        let outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>
        var inbound: NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator

        public mutating func post(_ path: String, json: String) async throws -> Response {
            var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: path)
            head.headers.add(name: "Host", value: "\(host):\(port)")
            head.headers.add(name: "Content-Type", value: "application/json")
            head.headers.add(name: "Content-Length", value: String(json.utf8.count))
            try await outbound.write(contentsOf: [.head(head), .body(.byteBuffer(ByteBuffer(string: json))), .end(nil)])
            return try await LoopbackHTTPClient.readResponse(&inbound)
        }
    }

    /// Opens one connection, runs `body` with it, and closes it.
    public func withKeepAliveConnection<R: Sendable>(_ body: (inout KeepAliveConnection) async throws -> R) async throws -> R {
        let channel = try await connectHTTP()
        return try await channel.executeThenClose { inbound, outbound in
            var connection = KeepAliveConnection(host: host, port: port, outbound: outbound, inbound: inbound.makeAsyncIterator())
            return try await body(&connection)
        }
    }
}
