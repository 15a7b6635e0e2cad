import Logging
import Synchronization

/// Collects every log line of a logger (level, message and metadata) as text, for tests that check what reaches the
/// log and what does not.
public final class CapturedLogs: Sendable {
    private let lines = Mutex<[String]>([])

    /// Creates an empty capture.
    public init() {}

    /// Every line so far, in order.
    public var messages: [String] { lines.withLock { $0 } }
    /// Every line so far, joined by newlines.
    public var all: String { messages.joined(separator: "\n") }

    /// A logger at trace level whose lines land here.
    public var logger: Logger {
        var logger = Logger(label: "captured") { _ in Handler(sink: self) }
        logger.logLevel = .trace
        return logger
    }

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    struct Handler: LogHandler {
        let sink: CapturedLogs
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
            sink.append("\(event.level) \(event.message) \(merged.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " "))")
        }
    }
}
