import CListFetch
import Foundation

/// A destination the operator allows the fetcher to reach although it is not a public address: a host name (any
/// address it resolves to is then allowed) or an IPv4/IPv6 network in CIDR notation (a bare address is one host).
/// By default only public unicast addresses are reached: loopback, private, link-local, unique-local, multicast,
/// unspecified and reserved ones are refused.
public struct FetchDestination: Sendable, Equatable, CustomStringConvertible {
    /// The lower-cased host name, when this entry is a name.
    public let host: String?
    package let network: list_fetch_network?

    /// Parses `text`: `name.example`, `10.1.2.3`, `10.0.0.0/8`, `fd00::/8` or `::1`.
    ///
    /// Returns nil when `text` is empty, has a malformed prefix, or is neither an address nor a host name.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= 253 else { return nil }
        let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        let addressText = String(parts[0])
        if let (family, bytes) = Self.address(addressText) {
            let maximum = family == 4 ? 32 : 128
            var prefix = maximum
            if parts.count == 2 {
                guard let parsed = Int(parts[1]), (0...maximum).contains(parsed) else { return nil }
                prefix = parsed
            }
            var network = list_fetch_network()
            network.family = family
            network.prefix = Int32(prefix)
            withUnsafeMutableBytes(of: &network.address) { raw in
                for (index, byte) in bytes.enumerated() { raw[index] = byte }
            }
            self.host = nil
            self.network = network
            self.text = addressText + "/\(prefix)"
            return
        }
        guard parts.count == 1, trimmed.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }) else {
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

    /// The family (4 or 6) and bytes of a numeric address; nil for anything else.
    static func address(_ text: String) -> (Int32, [UInt8])? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return (4, withUnsafeBytes(of: &v4) { Array($0) })
        }
        let bare = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
        var v6 = in6_addr()
        if inet_pton(AF_INET6, bare, &v6) == 1 {
            return (6, withUnsafeBytes(of: &v6) { Array($0) })
        }
        return nil
    }
}
