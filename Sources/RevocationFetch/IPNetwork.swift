#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// An IP address as 4 or 16 bytes; an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) is kept as its IPv4 address, so
/// one rule covers both spellings of it.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6, in network order.
    public let bytes: [UInt8]

    /// The address of 4 or 16 bytes; nil for another length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        if bytes.count == 16, bytes[0 ..< 10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            self.bytes = Array(bytes[12...])
        } else {
            self.bytes = bytes
        }
    }

    /// Parses a numeric address: `192.0.2.1`, `2001:db8::1` or `[2001:db8::1]` (no port, no zone).
    public init?(_ text: some StringProtocol) {
        var text = String(text)
        if text.hasPrefix("["), text.hasSuffix("]"), text.count > 2 { text = String(text.dropFirst().dropLast()) }
        guard !text.isEmpty, text.utf8.count <= 45 else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self.init(bytes: withUnsafeBytes(of: &v4) { Array($0) })
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        self.init(bytes: withUnsafeBytes(of: &v6) { Array($0) })
    }

    /// Whether this is an IPv4 address (an IPv4-mapped IPv6 one included).
    public var isIPv4: Bool { bytes.count == 4 }

    /// The canonical text (`192.0.2.1`, `2001:db8::1`).
    public var description: String {
        if isIPv4 { return bytes.map { String($0) }.joined(separator: ".") }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { raw in for (index, byte) in bytes.enumerated() { raw[index] = byte } }
        guard inet_ntop(AF_INET6, &address, &text, socklen_t(text.count)) != nil else { return "unknown" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// An IPv4 or IPv6 network in CIDR notation; a bare address is one host. The one parser of what an operator lists
/// (`trustedProxies`, `webhookAllow`, `revocationFetchAllow`, `mdocverify --fetch-allow`).
public struct IPNetwork: Hashable, Sendable, CustomStringConvertible {
    /// The address as written (host bits are not cleared; `contains` masks both sides).
    public let address: IPAddress
    /// The prefix length: 0 to 32 for IPv4, 0 to 128 for IPv6.
    public let prefix: Int

    /// Parses `10.0.0.0/8`, `192.0.2.1`, `fd00::/8`, `::1` or `[::1]`; nil for anything else (a host name, a prefix
    /// that is not decimal digits or is out of range). `::ffff:10.0.0.0/104` is the IPv4 network 10.0.0.0/8.
    public init?(_ text: some StringProtocol) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let address = IPAddress(parts[0]) else { return nil }
        let mappedShift = address.isIPv4 && parts[0].contains(":") ? 96 : 0
        let maximum = address.isIPv4 ? 32 : 128
        var prefix = maximum
        if parts.count == 2 {
            guard !parts[1].isEmpty, parts[1].count <= 3, parts[1].allSatisfy({ $0.isASCII && $0.isNumber }), let parsed = Int(parts[1]),
                  (mappedShift ... maximum + mappedShift).contains(parsed)
            else { return nil }
            prefix = parsed - mappedShift
        }
        self.address = address
        self.prefix = prefix
    }

    /// Whether `candidate` lies in this network (never across families).
    public func contains(_ candidate: IPAddress) -> Bool {
        guard candidate.bytes.count == address.bytes.count else { return false }
        var remaining = prefix
        for index in address.bytes.indices where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            guard address.bytes[index] & mask == candidate.bytes[index] & mask else { return false }
            remaining -= bits
        }
        return true
    }

    /// `address/prefix`, the address in canonical text.
    public var description: String { "\(address)/\(prefix)" }
}
