#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One HTTP/1.1 connection to 127.0.0.1 on a blocking socket, for the load's client threads.
///
/// The load tool shares the machine's cores with the server it measures, so its clients are as light as a C load
/// generator's: a request is one `send`, a response is read until its `Content-Length` is complete, and nothing is
/// parsed beyond the status line and that header. An event-loop client cost more CPU per call than the server's
/// own HTTP handling and hid the server's figure behind its own.
final class SocketConnection {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let socket: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)

    init(port: Int) throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(socket)
            throw Failure(description: "connect to 127.0.0.1:\(port) failed: errno \(code)")
        }
        var one: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        self.socket = socket
    }

    deinit { close(socket) }

    /// Sends `request` (a whole HTTP/1.1 request) and returns the response's status once its body is read.
    func exchange(_ request: [UInt8]) throws -> Int {
        try request.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let n = send(socket, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                guard n > 0 else { throw Failure(description: "send failed: errno \(errno)") }
                sent += n
            }
        }
        var filled = 0
        var head: (status: Int, bodyStart: Int, length: Int)?
        while true {
            if filled == buffer.count { throw Failure(description: "response larger than \(buffer.count) bytes") }
            let n = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress! + filled, $0.count - filled, 0) }
            guard n > 0 else { throw Failure(description: n == 0 ? "connection closed by the server" : "recv failed: errno \(errno)") }
            filled += n
            if head == nil { head = try Self.parseHead(buffer[0 ..< filled]) }
            if let head, filled >= head.bodyStart + head.length {
                guard filled == head.bodyStart + head.length else { throw Failure(description: "bytes after the response") }
                return head.status
            }
        }
    }

    /// The status and body length once the head is complete; nil while it is not.
    private static func parseHead(_ bytes: ArraySlice<UInt8>) throws -> (status: Int, bodyStart: Int, length: Int)? {
        let terminator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = bytes.firstRange(of: terminator) else { return nil }
        let lines = bytes[..<end.lowerBound].split(separator: UInt8(ascii: "\n")).map {
            String(decoding: $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0, as: UTF8.self)
        }
        let statusLine = lines.first?.split(separator: " ") ?? []
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else {
            throw Failure(description: "not an HTTP/1.x status line")
        }
        let lengthLine = lines.dropFirst().first { $0.lowercased().hasPrefix("content-length:") }
        guard let lengthLine, let length = Int(lengthLine.dropFirst("content-length:".count).filter { $0 != " " && $0 != "\t" }) else {
            throw Failure(description: "response without Content-Length (the load client reads no other framing)")
        }
        return (status, end.upperBound - bytes.startIndex, length)
    }
}
