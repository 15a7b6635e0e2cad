import Foundation
import NIOCore

/// The server could not bind its address: one line naming it and the setting that moves it, for the operator,
/// instead of the socket call and errno.
public struct ListenFailure: Error, CustomStringConvertible {
    /// The configured host that could not be bound.
    public let host: String
    /// The configured port that could not be bound.
    public let port: Int
    /// Why, in words: "is already in use", "is not an address of this machine", …
    public let reason: String

    /// "127.0.0.1:8080 is already in use; …".
    public var description: String {
        "\(Self.address(host, port)) \(reason)"
    }

    /// `error` as a `ListenFailure` when it is the bind failure of `host:port`, else nil; `hostKey` and `portKey` are
    /// the settings that move it.
    static func from(_ error: any Error, host: String, port: Int, hostKey: String = "host", portKey: String = "port") -> ListenFailure? {
        guard let io = error as? IOError, io.description.contains("bind(") else { return nil }
        let hostSetting = "\(hostKey) (\(ConfigurationKey.environmentName(of: hostKey)))"
        let portSetting = "\(portKey) (\(ConfigurationKey.environmentName(of: portKey)))"
        let reason = switch io.errnoCode {
        case EADDRINUSE: "is already in use; stop what listens there, or set \(portSetting) or \(hostSetting)"
        case EADDRNOTAVAIL: "cannot be bound: the host is not an address of this machine; set \(hostSetting)"
        case EACCES: "cannot be bound: permission denied (ports below 1024 need privileges); set \(portSetting)"
        default: "cannot be bound: \(String(cString: strerror(io.errnoCode))); set \(hostSetting) or \(portSetting)"
        }
        return ListenFailure(host: host, port: port, reason: reason)
    }

    private static func address(_ host: String, _ port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
