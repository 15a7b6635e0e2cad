import CListFetch
import Foundation

/// A destination the operator allows the fetcher to reach although it is not a public address: a host name (any
/// address it resolves to is then allowed) or an IPv4/IPv6 network in CIDR notation (a bare address is one host).
/// By default only public unicast addresses are reached: loopback, private, link-local, unique-local, multicast,
/// unspecified and reserved ones are refused.
public struct FetchDestination: Sendable, Equatable, CustomStringConvertible {
    /// The lower-cased host name, when this entry is a name.
    public let host: String?
    /// The network, when this entry is an address or a CIDR network.
    public let network: IPNetwork?

    /// Parses `text`: `name.example`, `10.1.2.3`, `10.0.0.0/8`, `fd00::/8` or `::1`.
    ///
    /// Returns nil when `text` is empty, has a malformed prefix, or is neither an address nor a host name.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= 253 else { return nil }
        if let network = IPNetwork(trimmed) {
            self.host = nil
            self.network = network
            self.text = network.description
            return
        }
        guard trimmed.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }) else {
            return nil
        }
        self.host = trimmed.lowercased()
        self.network = nil
        self.text = trimmed.lowercased()
    }

    private let text: String

    /// The entry as the operator would write it (networks with their prefix).
    public var description: String { text }

    public static func == (lhs: FetchDestination, rhs: FetchDestination) -> Bool { lhs.text == rhs.text }

    /// Whether an address (4 or 16 bytes) is a public unicast address the fetcher reaches without an allow entry.
    public static func isPublic(_ address: [UInt8]) -> Bool {
        guard address.count == 4 || address.count == 16 else { return false }
        return address.withUnsafeBufferPointer { list_fetch_is_public(address.count == 4 ? 4 : 6, $0.baseAddress) } == 1
    }

    /// The network as the C policy reads it.
    var cNetwork: list_fetch_network? {
        guard let network else { return nil }
        var entry = list_fetch_network()
        entry.family = network.address.isIPv4 ? 4 : 6
        entry.prefix = Int32(network.prefix)
        withUnsafeMutableBytes(of: &entry.address) { raw in
            for (index, byte) in network.address.bytes.enumerated() { raw[index] = byte }
        }
        return entry
    }
}
