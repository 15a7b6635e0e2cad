import Foundation
import MdocTesting
import MdocTrust
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// An in-process HTTP server on 127.0.0.1 that publishes the kit's status list tokens and CRLs, for tests of
/// fetching verifiers: it counts requests per path and can answer slowly, with an error status, with a redirect,
/// or not at all (`stop()`).
public final class RevocationListServer: Sendable {
    /// How one path answers.
    public enum Answer: Sendable {
        /// 200 with the bytes and content type.
        case list([UInt8], contentType: String)
        /// An error status without a body.
        case status(Int)
        /// 302 to the location.
        case redirect(String)
        /// 302 to the location with a body that never ends: a space every 100 ms until the client hangs up.
        case endlessRedirect(String)
    }

    private struct State {
        var answers: [String: Answer] = [:]
        var delay: Duration = .zero
        var requests: [String: Int] = [:]
    }

    private let state = NIOLockedValueBox(State())
    private let channel: NIOLockedValueBox<(any Channel)?>
    /// The loopback port the server listens on.
    public let port: Int

    private init(channel: any Channel, port: Int) {
        self.channel = NIOLockedValueBox(channel)
        self.port = port
    }

    /// Starts listening on an ephemeral loopback port.
    public static func start() async throws -> RevocationListServer {
        let box = NIOLockedValueBox<RevocationListServer?>(nil)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Handler(server: { box.withLockedValue { $0 } }))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let server = RevocationListServer(channel: channel, port: channel.localAddress?.port ?? 0)
        box.withLockedValue { $0 = server }
        return server
    }

    /// The URL of `path` on this server: `http://127.0.0.1:<port><path>`.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Sets how `path` answers from now on (a path with no answer gets 404).
    public func publish(_ answer: Answer, at path: String) {
        state.withLockedValue { $0.answers[path] = answer }
    }

    /// Publishes the simulated response's status list and identifier list tokens (each at its URI's path on this
    /// server) and its CRL.
    public func publish(_ revocation: SimulatedRevocation, crlPath: String = "/crl") {
        for (uri, token) in revocation.tokens {
            guard let path = URL(string: uri)?.path, !path.isEmpty else { continue }
            let type = uri == revocation.identifierListURI ? StatusToken.identifierListType : StatusToken.statusListType
            publish(.list(token, contentType: type), at: path)
        }
        publish(.list(revocation.crl.derEncoded, contentType: "application/pkix-crl"), at: crlPath)
    }

    /// Every answer waits this long first (a slow list server).
    public func setDelay(_ delay: Duration) {
        state.withLockedValue { $0.delay = delay }
    }

    /// Requests received for `path` so far.
    public func requests(_ path: String) -> Int {
        state.withLockedValue { $0.requests[path] ?? 0 }
    }

    /// Stops listening (a list server that is down); open connections are closed.
    public func stop() async {
        let open = channel.withLockedValue { current -> (any Channel)? in
            defer { current = nil }
            return current
        }
        try? await open?.close()
    }

    fileprivate func answer(for path: String) -> (Answer, Duration) {
        state.withLockedValue { state in
            state.requests[path, default: 0] += 1
            return (state.answers[path] ?? .status(404), state.delay)
        }
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let server: @Sendable () -> RevocationListServer?
        private var path = "/"

        init(server: @escaping @Sendable () -> RevocationListServer?) {
            self.server = server
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                path = URL(string: head.uri)?.path ?? head.uri
            case .body:
                break
            case .end:
                guard let server = server() else {
                    context.close(promise: nil)
                    return
                }
                let (answer, delay) = server.answer(for: path)
                if delay > .zero {
                    let loop = context.eventLoop.assumeIsolated()
                    let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
                    loop.scheduleTask(in: .nanoseconds(nanoseconds)) { self.respond(answer, context: context) }
                } else {
                    respond(answer, context: context)
                }
            }
        }

        private func respond(_ answer: Answer, context: ChannelHandlerContext) {
            if case .endlessRedirect(let location) = answer { return trickle(to: location, context: context) }
            var headers = HTTPHeaders()
            let status: HTTPResponseStatus
            var body: [UInt8] = []
            switch answer {
            case .list(let bytes, let contentType):
                status = .ok
                body = bytes
                headers.add(name: "Content-Type", value: contentType)
            case .status(let code):
                status = HTTPResponseStatus(statusCode: code)
            case .redirect(let location), .endlessRedirect(let location):
                status = .found
                headers.add(name: "Location", value: location)
            }
            headers.add(name: "Content-Length", value: "\(body.count)")
            headers.add(name: "Connection", value: "close")
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
            if !body.isEmpty {
                context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
            }
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }

        /// A 302 whose chunked body never ends: one space every 100 ms while the connection is open.
        private func trickle(to location: String, context: ChannelHandlerContext) {
            var headers = HTTPHeaders()
            headers.add(name: "Location", value: location)
            headers.add(name: "Transfer-Encoding", value: "chunked")
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .found, headers: headers))), promise: nil)
            let loop = context.eventLoop.assumeIsolated()
            func next() {
                loop.scheduleTask(in: .milliseconds(100)) {
                    guard context.channel.isActive else { return }
                    context.writeAndFlush(self.wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: " ")))), promise: nil)
                    next()
                }
            }
            next()
        }
    }
}
