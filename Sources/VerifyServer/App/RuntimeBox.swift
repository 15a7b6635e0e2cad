import CBOR
import Foundation
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle
import UnixSignals

/// The runtime the handlers use, swapped whole when the trust (files and VICALs) and keys are reloaded: a request
/// takes one snapshot and keeps it, so verifications in flight finish on the store they started with.
final class RuntimeBox: Sendable {
    private struct State {
        var runtime: VerifierRuntime
        var lastReloadError: String?
    }

    private let state: NIOLockedValueBox<State>

    init(_ runtime: VerifierRuntime) {
        state = NIOLockedValueBox(State(runtime: runtime, lastReloadError: nil))
    }

    var current: VerifierRuntime { state.withLockedValue { $0.runtime } }
    /// Why the last reload failed (the old runtime stayed), nil after a successful one.
    var lastReloadError: String? { state.withLockedValue { $0.lastReloadError } }

    /// Loads the configuration's keys, trust files and VICALs again; on any problem keeps the current runtime.
    @discardableResult
    func reload(logger: Logger) -> Bool {
        let configuration = current.configuration
        do {
            let runtime = try VerifierRuntime.load(configuration, fetcher: current.fetcher)
            state.withLockedValue { $0 = State(runtime: runtime, lastReloadError: nil) }
            logger.info("trust reloaded", metadata: ["anchors": "\(runtime.trustStore.anchors.count)", "vicals": "\(runtime.vicals.count)"])
            return true
        } catch {
            let reason = error.problems.joined(separator: "; ")
            state.withLockedValue { $0.lastReloadError = reason }
            logger.error("trust reload failed; the previous trust stays in use", metadata: ["problems": "\(TerminalText.escaped(reason))"])
            return false
        }
    }
}

/// Reloads the runtime on SIGHUP until the server shuts down.
struct TrustReloadOnHangup: Service {
    let box: RuntimeBox
    let logger: Logger

    func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        for await _ in signals.cancelOnGracefulShutdown() {
            box.reload(logger: logger)
        }
    }
}
