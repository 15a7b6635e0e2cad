import Foundation
import FuzzHarness
import Testing

/// Every input a fuzz run turned up stays as a regression: each file under `Regressions/<target>/` is replayed
/// through its target, which traps (failing the test run) if the bug comes back. The seeds are replayed too, so a
/// harness that no longer builds its fixtures, or a seed a change made crash, fails here before CI fuzzes.
@Suite("Fuzz regressions")
struct RegressionReplayTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Regressions")

    /// (target, file name) for every committed regression input.
    static var regressions: [(String, String)] {
        let manager = FileManager.default
        let targets = (try? manager.contentsOfDirectory(atPath: folder.path)) ?? []
        return targets.sorted().flatMap { target in
            ((try? manager.contentsOfDirectory(atPath: folder.appendingPathComponent(target).path)) ?? [])
                .filter { !$0.hasPrefix(".") }.sorted().map { (target, $0) }
        }
    }

    @Test("each regression input passes its target", arguments: regressions)
    func replay(target name: String, file: String) throws {
        let target = try #require(FuzzTargets.named(name), "Regressions/\(name) names no fuzz target")
        target.run(Array(try Data(contentsOf: Self.folder.appendingPathComponent(name).appendingPathComponent(file))))
    }

    @Test("each target's seeds pass it", arguments: FuzzTargets.all.map(\.name))
    func seeds(name: String) throws {
        let target = try #require(FuzzTargets.named(name))
        let seeds = try target.seeds()
        #expect(!seeds.isEmpty)
        for seed in seeds {
            #expect(seed.count <= target.maxLength, "a \(name) seed is longer than the target's max_len")
            target.run(seed)
        }
    }

    @Test("the committed corpus has a folder per target")
    func corpusFolders() throws {
        let corpus = Self.folder.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/corpus")
        for target in FuzzTargets.all {
            let files = try FileManager.default.contentsOfDirectory(atPath: corpus.appendingPathComponent(target.name).path)
            #expect(!files.isEmpty, "Fuzz/corpus/\(target.name) is empty")
        }
    }
}
