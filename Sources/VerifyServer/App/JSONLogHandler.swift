#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Logging
import Mdoc
import MdocModel
import NIOConcurrencyHelpers

/// A swift-log handler that writes one JSON object per line (`logFormat: json`), for log collectors.
///
/// Each line is `{"time", "level", "label", "message", "metadata"}`: `time` in RFC 3339 UTC, `metadata` an object
/// (the logger's, its metadata provider's and the message's, the message's winning). Keys are sorted and the text is
/// ASCII (anything else is a `\u` escape), so control and bidirectional characters from input cannot forge a line or
/// mislead a terminal. It writes what the server logs, which never includes nonces, keys or element values.
public struct JSONLogHandler: LogHandler {
    /// The minimum level written.
    public var logLevel: Logger.Level = .info
    /// Metadata added to every line.
    public var metadata: Logger.Metadata = [:]
    /// Metadata computed for every line (e.g. from a task-local context).
    public var metadataProvider: Logger.MetadataProvider?
    let label: String
    let now: @Sendable () -> Date
    let write: @Sendable ([UInt8]) -> Void

    /// A handler for `label` whose lines (each ending in a newline) go to `write`; `now` stamps them.
    public init(label: String, metadataProvider: Logger.MetadataProvider? = nil, now: @escaping @Sendable () -> Date = { Date() },
                write: @escaping @Sendable ([UInt8]) -> Void) {
        self.label = label
        self.metadataProvider = metadataProvider
        self.now = now
        self.write = write
    }

    /// A handler for `label` that writes to standard error, one whole line per write.
    public static func standardError(label: String, metadataProvider: Logger.MetadataProvider? = nil) -> JSONLogHandler {
        JSONLogHandler(label: label, metadataProvider: metadataProvider, write: StandardError.writeLine)
    }

    /// The metadata value of `key` on this handler.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes `event` as one JSON line.
    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let own = event.metadata { merged.merge(own) { _, new in new } }
        write(Self.line(time: now(), level: event.level, label: label, message: event.message.description, metadata: merged))
    }

    /// One log line: the JSON object and a newline.
    static func line(time: Date, level: Logger.Level, label: String, message: String, metadata: Logger.Metadata) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128 + message.utf8.count)
        out += Array("{\"time\":".utf8)
        appendString(RFC3339.format(time), to: &out)
        out += Array(",\"level\":".utf8)
        appendString(level.rawValue, to: &out)
        out += Array(",\"label\":".utf8)
        appendString(label, to: &out)
        out += Array(",\"message\":".utf8)
        appendString(message, to: &out)
        out += Array(",\"metadata\":".utf8)
        appendValue(.dictionary(metadata), to: &out)
        out += Array("}\n".utf8)
        return out
    }

    private static func appendValue(_ value: Logger.Metadata.Value, to out: inout [UInt8]) {
        switch value {
        case .string(let text):
            appendString(text, to: &out)
        case .stringConvertible(let convertible):
            appendString(convertible.description, to: &out)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendValue(element, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .dictionary(let entries):
            out.append(UInt8(ascii: "{"))
            for (index, key) in entries.keys.sorted().enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                appendString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                if let entry = entries[key] { appendValue(entry, to: &out) }
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// `text` as a JSON string of ASCII only: quotes, backslashes, controls and every non-ASCII scalar escaped.
    static func appendString(_ text: String, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        func escape(_ unit: UInt16) {
            out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), hex[Int(unit >> 12)], hex[Int(unit >> 8 & 0xF)],
                    hex[Int(unit >> 4 & 0xF)], hex[Int(unit & 0xF)]]
        }
        out.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case 0x5C: out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x20 ..< 0x7F: out.append(UInt8(scalar.value))
            default:
                for unit in String(scalar).utf16 { escape(unit) }
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// Standard error, written a whole line at a time under one lock, so lines from concurrent loggers never interleave.
enum StandardError {
    private static let lock = NIOLock()

    static func writeLine(_ bytes: [UInt8]) {
        lock.withLock {
            bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count, let base = buffer.baseAddress {
                    let written = write(2, base + offset, buffer.count - offset)
                    if written > 0 {
                        offset += written
                    } else if written < 0 && errno == EINTR {
                        continue
                    } else {
                        return  // Standard error is gone: nothing better to do with a log line.
                    }
                }
            }
        }
    }
}
