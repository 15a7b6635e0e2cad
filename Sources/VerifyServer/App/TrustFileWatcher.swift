import Foundation
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle

/// Reloads the trust when its files change: every `interval` it compares the names, sizes and modification times of
/// the trust folders' files, the VICAL files and their roots, and the CRL and status list files with what it saw last.
/// With a zero interval it checks nothing and only waits for graceful shutdown.
final class TrustFileWatcher: Service, Sendable {
    let box: RuntimeBox
    let interval: Duration
    let logger: Logger
    private let seen: NIOLockedValueBox<[String]>

    init(box: RuntimeBox, interval: Duration, logger: Logger) {
        self.box = box
        self.interval = interval
        self.logger = logger
        seen = NIOLockedValueBox(Self.snapshot(box.current.configuration))
    }

    func run() async throws {
        // Off: wait for shutdown instead of returning, since a service that returns ends the whole service group.
        guard interval > .zero else {
            try? await gracefulShutdown()
            return
        }
        await repeatEvery(interval) { [self] in checkOnce() }
    }

    /// Reloads when the files differ from the last look; returns whether it reloaded.
    @discardableResult
    func checkOnce() -> Bool {
        let now = Self.snapshot(box.current.configuration)
        let changed = seen.withLockedValue { seen in
            defer { seen = now }
            return seen != now
        }
        guard changed else { return false }
        logger.info("trust files changed; reloading")
        return box.reload(logger: logger)
    }

    /// One line per file: path, size and modification time.
    static func snapshot(_ configuration: ServerConfiguration) -> [String] {
        let manager = FileManager.default
        var files: [String] = []
        let paths = configuration.trustStorePaths + configuration.trustListFiles + configuration.crlPaths + configuration.statusListPaths
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                files.append(path + " missing")
                continue
            }
            if isDirectory.boolValue {
                let names = (try? manager.contentsOfDirectory(atPath: path)) ?? []
                files += names.sorted().map { (path.hasSuffix("/") ? path : path + "/") + $0 }
            } else {
                files.append(path)
            }
        }
        return files.map { file in
            let attributes = (try? manager.attributesOfItem(atPath: file)) ?? [:]
            let size = (attributes[.size] as? NSNumber)?.intValue ?? -1
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            return "\(file) \(size) \(modified)"
        }
    }
}

extension Task where Success == Never, Failure == Never {
    /// True once the task is cancelled or the service group began a graceful shutdown.
    static var isCancelledOrShuttingDown: Bool { isCancelled || isShuttingDownGracefully }
}
