import CBOR
import Foundation
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle
import UnixSignals

/// The runtime the handlers use, swapped whole when the trust (files and VICALs) and keys are reloaded: a request
/// takes one snapshot and keeps it, so verifications in flight finish on the store they started with.
///
/// It also holds, per VICAL provider, the highest issue ID this server (any instance sharing its store) ever
/// accepted: a reload with an older list, or one without an issue ID after one with, is refused as `vical.rollback`
/// unless that source says `allowRollback`. Accepted IDs go to the store through `recordIssueIDs`.
final class RuntimeBox: Sendable {
    private struct State {
        var runtime: VerifierRuntime
        var lastReloadError: String?
        var highestIssueIDs: [String: UInt64] = [:]
    }

    private let state: NIOLockedValueBox<State>
    /// How the downloads of VICALs and LoTEs with a `url` went (for `/readyz` and `/metrics`).
    let listRefreshes = TrustListRefreshStatus()
    /// Persists accepted issue IDs (the server's store); nil keeps them in memory only.
    private let recordIssueIDs: (@Sendable ([String: UInt64]) -> Void)?

    init(_ runtime: VerifierRuntime, recordIssueIDs: (@Sendable ([String: UInt64]) -> Void)? = nil) {
        state = NIOLockedValueBox(State(runtime: runtime, lastReloadError: nil))
        self.recordIssueIDs = recordIssueIDs
    }

    var current: VerifierRuntime { state.withLockedValue { $0.runtime } }
    /// Why the last reload failed (the old runtime stayed), nil after a successful one.
    var lastReloadError: String? { state.withLockedValue { $0.lastReloadError } }
    /// The highest issue ID accepted per VICAL provider.
    var highestIssueIDs: [String: UInt64] { state.withLockedValue { $0.highestIssueIDs } }

    /// Takes the issue IDs the store remembers (at start) and checks the running runtime's VICALs against them.
    ///
    /// - Returns: one problem per VICAL that rolls back; empty when the runtime may serve (its IDs are then recorded).
    func adoptRemembered(_ remembered: [String: UInt64]) -> [String] {
        let problems = state.withLockedValue { state in
            for (provider, id) in remembered { state.highestIssueIDs[provider] = max(state.highestIssueIDs[provider] ?? 0, id) }
            return Self.rollbacks(state.runtime, against: state.highestIssueIDs) + Self.loteRollbacks(state.runtime, against: state.highestIssueIDs)
        }
        if problems.isEmpty { accept(current) }
        return problems
    }

    /// Raises the remembered issue IDs to `remembered` (another instance's, read from the store) without checking the
    /// running runtime.
    func remember(_ remembered: [String: UInt64]) {
        state.withLockedValue { state in
            for (provider, id) in remembered { state.highestIssueIDs[provider] = max(state.highestIssueIDs[provider] ?? 0, id) }
        }
    }

    /// Loads the configuration's keys, trust files and VICALs again; on any problem (a VICAL rollback included) keeps
    /// the current runtime.
    @discardableResult
    func reload(logger: Logger) -> Bool {
        reloadProblems(logger: logger).isEmpty
    }

    /// `reload(logger:)`, returning the problems that kept the current runtime (empty when the new one is in use).
    ///
    /// A downloaded list whose copy is gone or no longer verifies against its pinned root (the operator rotated it)
    /// is a problem only `atStart`, which waits for its download and logs the problems itself as it refuses on them.
    /// On a later reload the new runtime goes without it: its anchors are not trusted until a download verifies,
    /// rather than the old runtime keeping a list the current root no longer vouches for. `/readyz` lists it under
    /// `untrustedLists`.
    func reloadProblems(logger: Logger, atStart: Bool = false) -> [String] {
        let configuration = current.configuration
        do throws(ConfigurationProblems) {
            let runtime = try VerifierRuntime.load(configuration, fetcher: current.fetcher, formats: current.formats, trustTime: current.trustTime)
            let pending = runtime.pendingLists.map(\.reason)
            let problems = (atStart ? pending : []) + Self.rollbacks(runtime, against: highestIssueIDs)
                + Self.loteRollbacks(runtime, against: highestIssueIDs)
            guard problems.isEmpty else { throw ConfigurationProblems(problems) }
            state.withLockedValue { $0.runtime = runtime; $0.lastReloadError = nil }
            accept(runtime)
            logger.info("trust reloaded", metadata: ["anchors": "\(runtime.trustStore.anchors.count)", "vicals": "\(runtime.vicals.count)"])
            if !pending.isEmpty {
                logger.warning("trust reloaded without the downloaded lists that have no usable copy; their anchors are not trusted until a download verifies", metadata: ["lists": "\(TerminalText.escaped(pending.joined(separator: "; ")))"])
            }
            return []
        } catch {
            let reason = error.problems.joined(separator: "; ")
            state.withLockedValue { $0.lastReloadError = reason }
            if !atStart {
                logger.error("trust reload failed; the previous trust stays in use", metadata: ["problems": "\(TerminalText.escaped(reason))"])
            }
            return error.problems
        }
    }

    /// Raises the remembered issue IDs to the runtime's, and hands them to the store.
    private func accept(_ runtime: VerifierRuntime) {
        let raised = state.withLockedValue { state -> [String: UInt64] in
            var raised: [String: UInt64] = [:]
            for vical in runtime.vicals {
                guard let id = vical.issueID, state.highestIssueIDs[vical.provider].map({ id > $0 }) ?? true
                else { continue }
                state.highestIssueIDs[vical.provider] = id
                raised[vical.provider] = id
            }
            // LoTE sequence numbers share the mark, under keys no VICAL provider has (`lote:<operator>|<type>`).
            for lote in runtime.lotes where state.highestIssueIDs[lote.rollbackKey].map({ lote.sequenceNumber > $0 }) ?? true {
                state.highestIssueIDs[lote.rollbackKey] = lote.sequenceNumber
                raised[lote.rollbackKey] = lote.sequenceNumber
            }
            return raised
        }
        if !raised.isEmpty { recordIssueIDs?(raised) }
    }

    /// One `vical.rollback` problem per VICAL of `runtime` older than what was accepted, unless its source allows it.
    static func rollbacks(_ runtime: VerifierRuntime, against highest: [String: UInt64]) -> [String] {
        runtime.vicals.compactMap { vical in
            guard !vical.source.allowRollback, let previous = highest[vical.provider] else { return nil }
            if let id = vical.issueID, id >= previous { return nil }
            let found = vical.issueID.map { "issue \($0)" } ?? "a list without vicalIssueID"
            return "vical \(vical.source.name): vical.rollback: \(found) of \(vical.provider) is older than issue \(previous) this server accepted "
                + "before; set allowRollback: true on this VICAL to accept it on purpose"
        }
    }
}

/// Reloads the runtime on SIGHUP until the server shuts down.
struct TrustReloadOnHangup: Service {
    let box: RuntimeBox
    let logger: Logger
    /// What else SIGHUP reloads (the API keys and webhook secrets).
    var also: @Sendable () -> Void = {}

    func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        for await _ in signals.cancelOnGracefulShutdown() {
            box.reload(logger: logger)
            also()
        }
    }
}
