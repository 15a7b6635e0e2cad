#if canImport(Glibc)
import Glibc
#endif
import CryptoCore
import Foundation
import Prometheus
import Verifier

/// The process's own figures under Prometheus' usual `process_*` names, read from `/proc/self` at each scrape, and
/// the build as `verify_server_build_info{version}` (always 1).
struct ProcessMetrics: Sendable {
    private let resident: Gauge
    private let virtual: Gauge
    private let cpu: Counter
    private let openFDs: Gauge
    private let maxFDs: Gauge
    private let startTime: Gauge
    /// The CPU seconds already counted: the counter takes the difference at each scrape (scrapes may overlap).
    private let counted = Locked(0.0)

    init(registry: PrometheusCollectorRegistry) {
        resident = registry.makeGauge(name: "process_resident_memory_bytes")
        virtual = registry.makeGauge(name: "process_virtual_memory_bytes")
        cpu = registry.makeCounter(name: "process_cpu_seconds_total")
        openFDs = registry.makeGauge(name: "process_open_fds")
        maxFDs = registry.makeGauge(name: "process_max_fds")
        startTime = registry.makeGauge(name: "process_start_time_seconds")
        registry.makeGauge(name: "verify_server_build_info", labels: [("version", ProductVersion.package)]).set(to: 1)
    }

    /// Reads `/proc/self` now; a figure that cannot be read keeps its last value.
    func update() {
        if let stat = Self.stat() {
            let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
            resident.set(to: Double(stat.residentPages) * Double(sysconf(Int32(_SC_PAGESIZE))))
            virtual.set(to: Double(stat.virtualBytes))
            if ticks > 0 {
                let seconds = Double(stat.userTicks + stat.systemTicks) / ticks
                // The increase since the last scrape (0 when the reading went backwards).
                let delta = counted.withLockedValue { counted in
                    defer { counted = max(counted, seconds) }
                    return max(0, seconds - counted)
                }
                if delta > 0 { cpu.increment(by: delta) }
                if let boot = Self.bootTime() { startTime.set(to: boot + Double(stat.startTicks) / ticks) }
            }
        }
        if let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") { openFDs.set(to: Double(entries.count)) }
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 { maxFDs.set(to: Double(limit.rlim_cur)) }
    }

    /// The fields of `/proc/self/stat` used here (proc(5)): after the command in parentheses, which may hold spaces.
    struct Stat: Equatable {
        var userTicks: UInt64
        var systemTicks: UInt64
        var startTicks: UInt64
        var virtualBytes: UInt64
        var residentPages: UInt64
    }

    static func stat(_ text: String? = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8)) -> Stat? {
        guard let text, let close = text.lastIndex(of: ")") else { return nil }
        // Field 3 (state) is the first after the command; utime is field 14, stime 15, starttime 22, vsize 23, rss 24.
        let fields = text[text.index(after: close)...].split(separator: " ").map { UInt64($0) }
        guard fields.count > 21, let user = fields[11], let system = fields[12], let start = fields[19], let virtual = fields[20],
              let resident = fields[21] else { return nil }
        return Stat(userTicks: user, systemTicks: system, startTicks: start, virtualBytes: virtual, residentPages: resident)
    }

    /// The boot time in seconds since 1970 (`btime` in `/proc/stat`).
    static func bootTime() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst("btime ".count).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
