// swift-tools-version: 6.1
import PackageDescription

// The package-benchmark suite of the verification pipeline's stages (Benchmarks/README.md). A package of its own, so
// that users of the library never resolve the benchmark tool; it uses the library by path.
let package = Package(
    name: "WalletVerifierBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "WalletVerifier", path: "../.."),
        // Malloc counts come from its interposer (no jemalloc needed on Swift 6.3).
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "PipelineStages",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Verifier", package: "WalletVerifier"),
                .product(name: "MdocTesting", package: "WalletVerifier"),
            ],
            path: "Benchmarks/PipelineStages",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
