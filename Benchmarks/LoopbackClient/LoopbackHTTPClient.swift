import NIOCore
import NIOHTTP1
import NIOPosix

/// A minimal HTTP/1.1 client for loopback only, for the server tests (not part of any product): one connection per
/// request with `Connection: close`. Refuses any host outside 127.0.0.0/8 and ::1.
public struct LoopbackHTTPClient: Sendable {
    public struct Response: Sendable {
        public let status: Int
        public let headers: [(String, String)]
        public let body: [UInt8]

        public var text: String { String(decoding: body, as: UTF8.self) }

        public func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
    }

    public struct ClientError: Error, CustomStringConvertible {
        public let description: String
    }

    public let host: String
    public let port: Int

    public init(host: String = "127.0.0.1", port: Int) throws {
        guard host == "::1" || host == "localhost" || host.hasPrefix("127.") else {
            throw ClientError(description: "LoopbackHTTPClient only talks to loopback addresses, not \(host)")
        }
        self.host = host
        self.port = port
    }

    public func get(_ path: String, headers: [(String, String)] = []) async throws -> Response {
        try await send(method: .GET, path: path, body: nil, headers: headers)
    }

    public func post(_ path: String, json: String) async throws -> Response {
        try await send(method: .POST, path: path, body: Array(json.utf8))
    }

    /// A connection that sends nothing, to see what the server does with it.
    public struct IdleConnection: Sendable {
        let channel: any Channel
        public var isActive: Bool { channel.isActive }
        /// Returns once the connection is closed (by either side).
        public func closed() async { try? await channel.closeFuture.get() }
        /// Calls `body` once the connection is closed, without waiting for it.
        public func onClose(_ body: @escaping @Sendable () -> Void) { channel.closeFuture.whenComplete { _ in body() } }
        public func close() async { try? await channel.close() }
    }

    public func openIdleConnection() async throws -> IdleConnection {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: host, port: port).get()
        return IdleConnection(channel: channel)
    }

    /// Sends a POST head announcing a body of `declaredLength` bytes and then no body, and reads the answer.
    public func postHeadWithoutBody(_ path: String, declaredLength: Int) async throws -> Response {
        try await send(method: .POST, path: path, body: nil, declaredLength: declaredLength)
    }

    public func send(method: HTTPMethod, path: String, body: [UInt8]?, contentType: String = "application/json",
                     declaredLength: Int? = nil, headers: [(String, String)] = []) async throws -> Response {
        let channel = try await connectHTTP()
        return try await channel.executeThenClose { inbound, outbound in
            var head = HTTPRequestHead(version: .http1_1, method: method, uri: path)
            head.headers.add(name: "Host", value: "\(host):\(port)")
            head.headers.add(name: "Connection", value: "close")
            for (name, value) in headers { head.headers.add(name: name, value: value) }
            if let length = body?.count ?? declaredLength {
                head.headers.add(name: "Content-Type", value: contentType)
                head.headers.add(name: "Content-Length", value: String(length))
            }
            // A server may answer (e.g. 413) and stop reading before the body is written; read its answer anyway.
            do {
                try await outbound.write(.head(head))
                if let body { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
                if declaredLength == nil { try await outbound.write(.end(nil)) }
            } catch {}

            var parts = inbound.makeAsyncIterator()
            return try await Self.readResponse(&parts)
        }
    }

    /// Reads one response (head, body, end) from a connection's inbound parts.
    static func readResponse(_ parts: inout NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator) async throws -> Response {
        var status = 0
        var headers: [(String, String)] = []
        var bytes: [UInt8] = []
        while let part = try await parts.next() {
            switch part {
            case .head(let responseHead):
                status = Int(responseHead.status.code)
                headers = responseHead.headers.map { ($0.name, $0.value) }
            case .body(let buffer):
                bytes += buffer.readableBytesView
            case .end:
                return Response(status: status, headers: headers, body: bytes)
            }
        }
        throw ClientError(description: "connection closed before a complete response")
    }

    /// A new HTTP/1.1 client connection to the server.
    func connectHTTP() async throws -> NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart> {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
        return channel
    }
}
