import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// The client address outstanding requests are counted by: the peer's IP address as this server sees it (behind a
/// reverse proxy, the proxy's); for IPv6 its /64 network, which one host usually holds whole; "unknown" for none.
func clientAddress(_ peer: SocketAddress?) -> String {
    guard case .v6(let address) = peer else { return peer?.ipAddress ?? "unknown" }
    let bytes = withUnsafeBytes(of: address.address.sin6_addr) { Array($0) }
    guard bytes.count == 16 else { return peer?.ipAddress ?? "unknown" }
    // IPv4-mapped (::ffff:a.b.c.d, a dual-stack listener's IPv4 client): the IPv4 address.
    if bytes[0 ..< 10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
        return bytes[12...].map { String($0) }.joined(separator: ".")
    }
    let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
    return groups.joined(separator: ":") + "::/64"
}

/// The context of every route: Hummingbird's basic context plus the connection's peer address.
struct ServerRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection's peer address.
    let peer: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peer = source.channel.remoteAddress
    }

    /// The client address for per-client limits (see `clientAddress(_:)`).
    var client: String { clientAddress(peer) }
}

/// Counts open connections per client IP address and closes a connection beyond `limit` as soon as it is set up, so
/// one client cannot hold every socket (e.g. trickling bodies on many connections).
final class ConnectionLimiter: Sendable {
    let limit: Int
    private let open = NIOLockedValueBox<[String: Int]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    /// Registers a connection from `address`; false when that address already holds `limit` connections.
    func admit(_ address: String) -> Bool {
        open.withLockedValue { open in
            let count = open[address, default: 0]
            guard count < limit else { return false }
            open[address] = count + 1
            return true
        }
    }

    func release(_ address: String) {
        open.withLockedValue { open in
            let count = open[address, default: 1] - 1
            open[address] = count > 0 ? count : nil
        }
    }

    /// The connections currently open from `address`.
    func count(_ address: String) -> Int {
        open.withLockedValue { $0[address, default: 0] }
    }

    /// A handler for one connection's pipeline.
    func handler() -> Handler { Handler(limiter: self) }

    final class Handler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny
        let limiter: ConnectionLimiter
        private var admitted: String?

        init(limiter: ConnectionLimiter) {
            self.limiter = limiter
        }

        private var checked = false

        // The pipeline is set up before the accepted channel is active; the check runs once it is.
        func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { admitOrClose(context) }
        }

        func channelActive(context: ChannelHandlerContext) {
            admitOrClose(context)
            context.fireChannelActive()
        }

        private func admitOrClose(_ context: ChannelHandlerContext) {
            guard !checked else { return }
            checked = true
            guard let address = context.channel.remoteAddress?.ipAddress else { return }
            if limiter.admit(address) {
                admitted = address
            } else {
                context.close(promise: nil)
            }
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            if let admitted { limiter.release(admitted) }
            admitted = nil
        }
    }
}
