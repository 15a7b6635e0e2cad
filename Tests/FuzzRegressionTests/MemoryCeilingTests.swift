import Foundation
import FuzzHarness
import Testing

/// A verification allocates at most 64× its input plus 16 MiB (README, "Ceilings"): the worst inputs for each front
/// door, run in a fresh `fuzz-verifier` process, which reports how far its resident size grew (an upper bound).
@Suite("Memory ceiling per verification")
struct MemoryCeilingTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let repositoryRoot = folder.deletingLastPathComponent().deletingLastPathComponent()

    static var binary: URL {
        let candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
                          Bundle.main.bundleURL.deletingLastPathComponent(), Bundle.main.bundleURL]
        return candidates.map { $0.appendingPathComponent("fuzz-verifier") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
            ?? repositoryRoot.appendingPathComponent(".build/debug/fuzz-verifier")
    }

    static func array(_ count: Int) -> [UInt8] { [0x99, UInt8(count >> 8), UInt8(count & 0xFF)] + [UInt8](repeating: 0, count: count) }

    /// The most items the decoder accepts (131,071 one-byte items), also behind HPKE; the largest input, one byte
    /// string; a map of 65,534 entries (its keys are checked for duplicates); and the largest Annex C text.
    static let inputs: [(name: String, target: String, bytes: [UInt8])] = [
        ("most items", "device-response", [0x82] + array(65_534) + array(65_534)),
        ("most items behind HPKE", "apple-plaintext", [0x82] + array(65_534) + array(65_534)),
        ("largest input", "device-response", [0x5A, 0x00, 0x3F, 0xFF, 0xFB] + [UInt8](repeating: 0x41, count: 4 * 1_048_576 - 5)),
        ("widest map", "device-response", [0xB9, 0xFF, 0xFE] + (0 ..< 65_534).flatMap { i -> [UInt8] in [0x19, UInt8(i >> 8), UInt8(i & 0xFF), 0xF6] }),
        ("largest Annex C text", "annex-c", Array(#"{"response":""#.utf8) + [UInt8](repeating: 0x41, count: 5_500_000) + Array(#""}"#.utf8)),
    ]

    /// Under AddressSanitizer or ThreadSanitizer the resident size also holds the sanitizer's shadow memory,
    /// redzones and quarantine, so the ceiling is measured in ordinary builds only (Fuzz/README.md, "Sanitizer test
    /// runs"); the fuzz targets still enforce it there through libFuzzer's -malloc_limit_mb.
    static let underSanitizer: Bool = {
        let runtimes: [String] = ["__asan_init", "__tsan_init"]
        return runtimes.contains { dlsym(UnsafeMutableRawPointer(bitPattern: 0), $0) != nil }
    }()

    @Test("growth ≤ 64 × input + 16 MiB", .disabled(if: underSanitizer, "resident size includes the sanitizer's own memory"),
          arguments: inputs.indices)
    func ceiling(index: Int) throws {
        let (name, target, bytes) = Self.inputs[index]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("memory-ceiling-\(index)-\(ProcessInfo.processInfo.processIdentifier)")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = ["peak-memory", target, file.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(name): fuzz-verifier exited \(process.terminationStatus)")
        let values = Dictionary(uniqueKeysWithValues: text.split(separator: "\n").compactMap { line -> (String, Int)? in
            let parts = line.split(separator: " ")
            return parts.count == 2 ? (String(parts[0]), Int(parts[1]) ?? -1) : nil
        })
        let input = try #require(values["input-bytes"])
        let growth = try #require(values["growth-bytes"])
        #expect(input == bytes.count)
        #expect(growth <= 64 * input + 16 << 20, "\(name): grew \(growth) bytes for \(input) input bytes")
    }
}
