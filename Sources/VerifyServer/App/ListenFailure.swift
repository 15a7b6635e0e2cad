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

    /// `error` as a `ListenFailure` when it is the bind failure of `host:port`, else nil.
    static func from(_ error: any Error, host: String, port: Int) -> ListenFailure? {
        guard let io = error as? IOError, io.description.contains("bind(") else { return nil }
        switch io.errnoCode {
        case EADDRINUSE:
            return ListenFailure(host: host, port: port, reason: "is already in use; stop what listens there, or set port (VERIFY_SERVER_PORT) "
                                 + "or host (VERIFY_SERVER_HOST)")
        case EADDRNOTAVAIL:
            return ListenFailure(host: host, port: port, reason: "cannot be bound: the host is not an address of this machine; set host (VERIFY_SERVER_HOST)")
        case EACCES:
            return ListenFailure(host: host, port: port, reason: "cannot be bound: permission denied (ports below 1024 need privileges); "
                                 + "set port (VERIFY_SERVER_PORT)")
        default:
            return ListenFailure(host: host, port: port, reason: "cannot be bound: \(String(cString: strerror(io.errnoCode))); "
                                 + "set host/port (VERIFY_SERVER_HOST, VERIFY_SERVER_PORT)")
        }
    }

    private static func address(_ host: String, _ port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
