import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import RevocationFetch

/// The client address per-client limits count by, from a socket peer alone (see `IPAddress.limitKey`); "unknown" for
/// none.
func clientAddress(_ peer: SocketAddress?) -> String {
    IPAddress(peer)?.limitKey ?? "unknown"
}

/// The context of every route: Hummingbird's basic context plus the connection's peer address and the request's
/// client.
struct ServerRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection's peer address (behind a load balancer, the balancer's).
    let peer: SocketAddress?
    /// The request's client as `ClientAddressMiddleware` found it (the peer, or the address a trusted proxy names).
    var resolvedClient: IPAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peer = source.channel.remoteAddress
        resolvedClient = IPAddress(peer)
    }

    /// The client address per-client limits count by: an IPv4 address, or an IPv6 /64 network; "unknown" for none.
    var client: String { resolvedClient?.limitKey ?? "unknown" }
}

/// Counts open connections per TCP peer address (an IPv6 peer by its /64) and closes a connection beyond `limit` as soon as it is set up, so
/// one client cannot hold every socket (e.g. trickling bodies on many connections). It counts peers, not the clients a
/// trusted proxy names (a connection is admitted before any request header arrives): behind a load balancer, raise
/// `maxConnectionsPerIP` to what the balancer opens.
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
            // Keyed as the rate limit and the outstanding-request cap are: an IPv6 peer by its /64, so one host
            // rotating addresses inside its network counts once.
            guard let peer = context.channel.remoteAddress, peer.ipAddress != nil else { return }
            let address = clientAddress(peer)
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
