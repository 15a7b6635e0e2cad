import Foundation
import FuzzHarness

#if FUZZING
// Built with `-sanitize=fuzzer` (Fuzz/run.sh): libFuzzer supplies `main` and calls these. FUZZ_TARGET names the
// target; one binary serves them all, so the sanitized build happens once.

/// The target FUZZ_TARGET names, resolved on first use.
let selectedTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
    guard let target = FuzzTargets.named(name) else {
        FileHandle.standardError.write(Data("FUZZ_TARGET must be one of: \(FuzzTargets.all.map(\.name).joined(separator: ", "))\n".utf8))
        exit(2)
    }
    return target
}()

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    // Builds the fixtures (and the library's lazily built tables) before the first input, so their process-lifetime
    // allocations are not charged to an input.
    selectedTarget.run([])
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    selectedTarget.run(input)
    return 0
}
#else
/// Without the fuzzer: lists the targets, writes the seed corpus, and replays inputs (a crash file, a corpus).
@main
struct FuzzVerifier {
    static let usage = """
        usage: fuzz-verifier list
               fuzz-verifier seeds <corpus-folder>            write each target's seeds to <corpus-folder>/<target>/
               fuzz-verifier replay <target> <file|folder>…   run inputs through a target (no fuzzer, no sanitizer)
               fuzz-verifier peak-memory <target> <file>      how much the process grew while the target ran the file
        """

    static func main() throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "list":
            for target in FuzzTargets.all { print("\(target.name)\t\(target.maxLength)\t\(target.summary)") }
        case "seeds" where arguments.count == 2:
            try writeSeeds(to: URL(fileURLWithPath: arguments[1]))
        case "replay" where arguments.count >= 3:
            guard let target = FuzzTargets.named(arguments[1]) else { fail("no target \(arguments[1])") }
            let files = try arguments.dropFirst(2).flatMap(inputFiles)
            for file in files { target.run(Array(try Data(contentsOf: file))) }
            print("\(target.name): \(files.count) inputs replayed, no invariant broken")
        case "peak-memory" where arguments.count == 3:
            guard let target = FuzzTargets.named(arguments[1]) else { fail("no target \(arguments[1])") }
            let input = Array(try Data(contentsOf: URL(fileURLWithPath: arguments[2])))
            target.run([])  // builds the fixtures first, so only the input's own cost is measured
            // Resets the kernel's peak-RSS mark (Linux ≥ 4.0), so VmHWM afterwards is the peak of this run alone.
            try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
            let before = statusKiB("VmRSS")
            target.run(input)
            print("input-bytes \(input.count)\ngrowth-bytes \(max(0, statusKiB("VmHWM") - before) * 1024)")
        default:
            fail(usage)
        }
    }

    /// One file per seed, named by the SHA-256 of its content (as libFuzzer names corpus entries).
    static func writeSeeds(to folder: URL) throws {
        for target in FuzzTargets.all {
            let directory = folder.appendingPathComponent(target.name)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let seeds = try target.seeds()
            for seed in seeds {
                try Data(seed).write(to: directory.appendingPathComponent(FuzzCorpus.fileName(seed)))
            }
            print("\(target.name): \(seeds.count) seeds")
        }
    }

    static func inputFiles(_ path: String) throws -> [URL] {
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { fail("no such file \(path)") }
        guard isDirectory.boolValue else { return [url] }
        return try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }.sorted { $0.path < $1.path }
    }

    /// A `kB` field of /proc/self/status (VmRSS: resident now; VmHWM: peak resident since the last reset).
    static func statusKiB(_ field: String) -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(2)
    }
}
#endif
