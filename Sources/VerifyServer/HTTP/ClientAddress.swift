#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Logging
import NIOCore
import RevocationFetch

extension IPAddress {
    /// The address of a socket peer; nil for a Unix socket or none.
    init?(_ peer: SocketAddress?) {
        switch peer {
        case .v4(let address):
            self.init(bytes: withUnsafeBytes(of: address.address.sin_addr) { Array($0) })
        case .v6(let address):
            self.init(bytes: withUnsafeBytes(of: address.address.sin6_addr) { Array($0) })
        default:
            return nil
        }
    }

    /// What per-client limits count by: an IPv4 address itself; for IPv6 its /64 network, which one host usually
    /// holds whole.
    var limitKey: String {
        guard !isIPv4 else { return description }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }
}

/// The request header a trusted proxy names the client in.
public enum ProxyHeader: String, CaseIterable, Sendable {
    /// `X-Forwarded-For: client, proxy1, proxy2` (the default: what most load balancers send).
    case xForwardedFor = "x-forwarded-for"
    /// RFC 7239 `Forwarded: for=client, for=proxy1`.
    case forwarded
}

/// Who sent a request: the TCP peer, or, when the peer is a trusted proxy, the address the proxy chain names.
///
/// The chain is read right to left (nearest proxy first): each trusted address is skipped and the first untrusted one
/// is the client, so a client cannot choose its address by sending the header itself. A header that cannot be read
/// (a name that is not an address, `unknown`, an obfuscated node, bad syntax) leaves the peer as the client.
struct ClientAddressResolver: Sendable {
    let trusted: [IPNetwork]
    let header: ProxyHeader

    /// The names the chain is read from, in `ServerConfiguration.trustedProxies` syntax; nil for a bad entry.
    init?(trustedProxies: [String], header: ProxyHeader) {
        var networks: [IPNetwork] = []
        for entry in trustedProxies {
            guard let network = IPNetwork(entry) else { return nil }
            networks.append(network)
        }
        trusted = networks
        self.header = header
    }

    func isTrusted(_ address: IPAddress) -> Bool { trusted.contains { $0.contains(address) } }

    /// The client of a request from `peer` whose proxy header lines (in order) are `lines`.
    func client(peer: IPAddress?, headerLines lines: [String]) -> IPAddress? {
        guard let peer, isTrusted(peer), !lines.isEmpty else { return peer }
        // A header that repeats is one list, in order (RFC 9110 §5.3).
        let joined = lines.joined(separator: ",")
        // Bounded: a chain longer than any real one is not read.
        guard joined.utf8.count <= 8192 else { return peer }
        let chain: [IPAddress?]
        switch header {
        case .xForwardedFor: chain = Self.forwardedFor(joined)
        case .forwarded: guard let parsed = Self.forwarded(joined) else { return peer }; chain = parsed
        }
        var client = peer
        for entry in chain.reversed() {
            guard let entry else { return peer }
            client = entry
            if !isTrusted(entry) { return entry }
        }
        // Every hop is trusted: the furthest one named is the client.
        return client
    }

    /// `X-Forwarded-For`'s entries; nil for one that is not an address (optionally `a.b.c.d:port` or `[v6]:port`).
    static func forwardedFor(_ value: String) -> [IPAddress?] {
        value.split(separator: ",", omittingEmptySubsequences: false).map { node($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// RFC 7239 `Forwarded`'s `for=` nodes, one per element; nil when the syntax is broken. An element without `for`
    /// or with a node that is not an address gives a nil entry.
    static func forwarded(_ value: String) -> [IPAddress?]? {
        var elements: [IPAddress?] = []
        var scanner = Array(value.utf8)[...]
        var current: IPAddress?? = .none
        func skipSpace() { while let first = scanner.first, first == 0x20 || first == 0x09 { scanner.removeFirst() } }
        while true {
            skipSpace()
            // A pair: token "=" (token / quoted-string).
            var name: [UInt8] = []
            while let first = scanner.first, isTokenByte(first) { name.append(first); scanner.removeFirst() }
            guard !name.isEmpty, scanner.first == UInt8(ascii: "=") else { return nil }
            scanner.removeFirst()
            var pairValue: [UInt8] = []
            if scanner.first == UInt8(ascii: "\"") {
                scanner.removeFirst()
                var closed = false
                while let byte = scanner.popFirst() {
                    if byte == UInt8(ascii: "\"") { closed = true; break }
                    if byte == UInt8(ascii: "\\") { guard let escaped = scanner.popFirst() else { return nil }; pairValue.append(escaped) } else { pairValue.append(byte) }
                }
                guard closed else { return nil }
            } else {
                while let first = scanner.first, isTokenByte(first) { pairValue.append(first); scanner.removeFirst() }
            }
            if String(decoding: name, as: UTF8.self).lowercased() == "for" {
                guard case .none = current else { return nil }
                current = .some(node(String(decoding: pairValue, as: UTF8.self)))
            }
            skipSpace()
            guard let separator = scanner.popFirst() else {
                elements.append(current ?? nil)
                return elements
            }
            switch separator {
            case UInt8(ascii: ";"): continue
            case UInt8(ascii: ","): elements.append(current ?? nil); current = .none
            default: return nil
            }
        }
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        (0x21 ... 0x7E).contains(byte) && !"\"(),/:;<=>?@[\\]{}".utf8.contains(byte) || byte == UInt8(ascii: ":")
            || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")
    }

    /// An address node: `192.0.2.1`, `192.0.2.1:4711`, `2001:db8::1`, `[2001:db8::1]` or `[2001:db8::1]:4711`.
    static func node(_ text: String) -> IPAddress? {
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || (rest.first == ":" && isPort(rest.dropFirst())) else { return nil }
            let inner = text[text.index(after: text.startIndex) ..< close]
            guard inner.contains(":") else { return nil }
            return IPAddress(inner)
        }
        if let address = IPAddress(text) { return address }
        // IPv4 with a port.
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, isPort(parts[1]), let address = IPAddress(parts[0]), address.isIPv4 else { return nil }
        return address
    }

    private static func isPort(_ text: Substring) -> Bool {
        text.count <= 5 && text.allSatisfy { $0.isASCII && $0.isNumber } && (Int(text).map { $0 <= 65535 } ?? false)
    }
}

/// The client address of the request the current task serves, for log lines.
enum RequestClient {
    @TaskLocal static var address: String?
}

/// Adds the client address (`client`) of the request being served to every log line written while serving it,
/// whatever handler the embedder's logger uses.
struct ClientAddressLogHandler: LogHandler {
    var inner: any LogHandler

    var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        guard let client = RequestClient.address else { return inner.log(event: event) }
        var event = event
        var metadata = event.metadata ?? [:]
        if metadata["client"] == nil { metadata["client"] = .string(client) }
        event.metadata = metadata
        inner.log(event: event)
    }

    /// `logger` with its handler wrapped (once).
    static func wrapping(_ logger: Logger) -> Logger {
        guard !(logger.handler is ClientAddressLogHandler) else { return logger }
        var wrapped = logger
        wrapped.handler = ClientAddressLogHandler(inner: logger.handler)
        return wrapped
    }
}
