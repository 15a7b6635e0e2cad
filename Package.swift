// swift-tools-version: 6.1
import PackageDescription

// Data flow, lowest first: system libraries → their C shims → CBOR / CryptoCore → HPKE, MdocModel → MdocTrust → Mdoc →
// Verifier → front-ends, with RevocationFetch (on MdocTrust) beside Mdoc; the kit (KitCertificates → MdocTesting →
// MdocTestingServer) beside the front-ends. A module only imports modules to its left. A relying party that depends
// on `Verifier` compiles no swift-nio, no second TLS stack and no database driver.
let opensslSettings: [CSetting] = [.define("OPENSSL_NO_DEPRECATED")]

// The upcoming-feature settings the Swift server packages use, on the library modules (CBOR up to Verifier and
// RevocationFetch): existentials spelled `any`, and a module's members visible only where it is imported.
let strictSettings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")]

let package = Package(
    name: "WalletVerifier",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Verifier", targets: ["Verifier"]),
        .library(name: "MdocTesting", targets: ["MdocTesting"]),
        // The kit's status list and CRL server on loopback (NIO), apart so the kit and the CLI link no HTTP server.
        .library(name: "MdocTestingServer", targets: ["MdocTestingServer"]),
        // The conformance runner and its targets, for a relying party's own test suite (the CLI is a front of it).
        .library(name: "MdocConformance", targets: ["MdocConformance"]),
        .executable(name: "mdocverify", targets: ["mdocverify"]),
        .library(name: "VerifyServer", targets: ["VerifyServer"]),
        .executable(name: "verify-server", targets: ["verify-server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // verify-server (exact versions the local mirror holds). Hummingbird without its swift-configuration trait:
        // the server reads its own YAML, and a release build compiles one package less.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        // Spans per request and per verification stage; no exporter bundled (a user's OpenTelemetry setup picks them up).
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        // Documentation (`swift package generate-documentation`); a plugin, linked into nothing.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // Test-only: an independent HPKE/ECDSA implementation to cross-check MdocTesting's output.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3" ..< "5.0.0"),
    ],
    targets: [
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CLibCBOR", pkgConfig: "libcbor", providers: [.apt(["libcbor-dev"])]),
        // zlib inflates Token Status Lists (and deflates them in the compliance kit).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // libcurl (Debian's OpenSSL flavour) carries every outbound request: the system's TLS, no second crypto stack.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // The demo page's QR codes (verify-server only).
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // One bounded request with the destination check on every connection's resolved address (C: curl_easy_setopt is variadic).
        .target(name: "CListFetch", dependencies: ["CCurl"]),
        // One shim target per C library, so CBOR never sees OpenSSL headers and CryptoCore never sees libcbor's.
        .target(name: "CCBORWalker", dependencies: ["CLibCBOR"]),
        // glibc heap calls (malloc_trim, mallinfo2) for verify-server's allocator trim and the load tool's soak.
        .target(name: "CAllocator"),
        .target(name: "COpenSSLShims", dependencies: ["COpenSSL"], cSettings: opensslSettings),
        .target(name: "CBOR", dependencies: ["CCBORWalker", "CLibCBOR"], swiftSettings: strictSettings),
        .target(name: "CryptoCore", dependencies: ["COpenSSLShims", "COpenSSL"], swiftSettings: strictSettings),
        .target(name: "HPKE", dependencies: ["CryptoCore", "COpenSSLShims", "COpenSSL"], swiftSettings: strictSettings),
        // The mdoc data and its vocabulary: COSE, the DeviceResponse model, elements, error codes and check results,
        // the SessionTranscript type, DeviceRequest / ReaderAuth, the request policy, the verified document.
        .target(name: "MdocModel", dependencies: ["CBOR", "CryptoCore"], swiftSettings: strictSettings),
        // Trust and revocation: VICALs, LoTEs, trust folders, the Annex B profile rules, the certificate cache, status
        // lists (zlib) and CRL sources.
        // Locks: CryptoCore.Locked, a pthread mutex, which ThreadSanitizer understands (Linux's Synchronization.Mutex
        // hands a contended lock over in the kernel, where it cannot see it; Fuzz/README.md).
        .target(name: "MdocTrust", dependencies: ["MdocModel", "CBOR", "CryptoCore", "CZlib"], swiftSettings: strictSettings),
        // The ISO/IEC 18013-5 checks over the model, with their catalog, options and stage timings (spans).
        .target(name: "Mdoc", dependencies: ["MdocModel", "MdocTrust", "CBOR", "CryptoCore",
                                             .product(name: "Tracing", package: "swift-distributed-tracing")], swiftSettings: strictSettings),
        .target(name: "Verifier", dependencies: ["Mdoc", "MdocModel", "MdocTrust", "HPKE", "CBOR", "CryptoCore"],
                // The production trust bundle (a copy of Certificates/production kept equal by a test), in the binary.
                resources: [.embedInCode("Trust/Embedded/ProductionBundle.pem"),
                            .embedInCode("Trust/Embedded/ProductionManifest.json")],
                swiftSettings: strictSettings),
        // Fetches status list tokens and CRLs over HTTP(S) into a cache the synchronous checks read (server; CLI --fetch).
        .target(
            name: "RevocationFetch",
            dependencies: ["MdocModel", "MdocTrust", "CBOR", "CryptoCore", "CListFetch",
                           .product(name: "Metrics", package: "swift-metrics"),
                           .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        // Certificate and CRL builders for test PKIs: the kit and the tests, never the verifier.
        .target(name: "KitCertificates", dependencies: ["CryptoCore", "COpenSSLShims", "COpenSSL"], cSettings: opensslSettings),
        // Signed test responses from a test PKI, with named faults (compliance-test kit).
        .target(name: "MdocTesting", dependencies: ["Verifier", "Mdoc", "MdocModel", "MdocTrust", "HPKE", "CBOR", "CryptoCore", "KitCertificates"],
                // Apple's sample envelope (TestVectors/apple/in-app-sample/hpke_envelope.cbor.hex as bytes).
                resources: [.embedInCode("Embedded/AppleSampleEnvelope.cbor")]),
        // The conformance corpus run against a verifier: a command, verify-server, an HTTP profile or flows in-process.
        .target(name: "MdocConformance", dependencies: ["MdocTesting", "Verifier", "Mdoc", "MdocModel", "CBOR", "CryptoCore", "RevocationFetch"]),
        // The kit's lists on loopback over HTTP (RevocationListServer).
        .target(name: "MdocTestingServer", dependencies: ["MdocTesting", "MdocTrust", "CryptoCore",
                                                         .product(name: "NIOCore", package: "swift-nio"),
                                                         .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                                                         .product(name: "NIOPosix", package: "swift-nio"),
                                                         .product(name: "NIOHTTP1", package: "swift-nio")]),
        .executableTarget(
            name: "mdocverify",
            dependencies: ["Verifier", "Mdoc", "MdocModel", "MdocTrust", "MdocTesting", "MdocConformance", "CBOR", "RevocationFetch",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The HTTP API's request bodies and their rules, without the HTTP stack (the server and the fuzz harness).
        .target(name: "VerifyServerAPI", dependencies: ["MdocModel"]),
        // The HTTP service: app, configuration, request stores, metrics (a library so tests start it in-process).
        .target(
            name: "VerifyServer",
            dependencies: [
                "Verifier", "Mdoc", "MdocModel", "MdocTrust", "CBOR", "CryptoCore", "RevocationFetch", "VerifyServerAPI", "CAllocator", "CQREncode",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            // The inspector page, embedded so the binary serves it with no files beside it.
            resources: [.embedInCode("Inspector/inspector.html"), .embedInCode("Inspector/inspector.js"),
                        .embedInCode("Inspector/inspector.css"),
                        // The demo page of the web flow (test mode with demoOrigin).
                        .embedInCode("Demo/demo.html"), .embedInCode("Demo/demo.js")]
        ),
        .executableTarget(
            name: "verify-server",
            dependencies: [
                "VerifyServer", "Verifier", "CBOR",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A loopback-only HTTP client for the server tests; not part of any product.
        .target(
            name: "LoopbackClient",
            dependencies: [.product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                           .product(name: "NIOHTTP1", package: "swift-nio")],
            path: "Benchmarks/LoopbackClient"
        ),
        // Loopback load tool for verify-server (bounded count and time); see Benchmarks/README.md.
        .executableTarget(
            name: "verify-server-load",
            dependencies: ["VerifyServer", "Verifier", "MdocModel", "CryptoCore", "MdocTesting", "CAllocator",
                           .product(name: "ArgumentParser", package: "swift-argument-parser"),
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
            path: "Benchmarks/VerifyServerLoad"
        ),
        // libFuzzer targets (Fuzz/README.md): the harness, and one driver that libFuzzer links when built with
        // -DFUZZING (Fuzz/run.sh) and that otherwise lists targets, writes seeds and replays inputs. Not in any product.
        .target(name: "FuzzHarness", dependencies: ["Verifier", "MdocModel", "MdocTrust", "CBOR", "CryptoCore", "MdocTesting", "VerifyServerAPI", "TestSupport"],
                path: "Fuzz/Harness"),
        .executableTarget(name: "fuzz-verifier", dependencies: ["FuzzHarness"], path: "Fuzz/Driver"),
        // Loads the external vectors in TestVectors/ for the test targets; not part of any product.
        .target(name: "TestSupport", dependencies: ["CryptoCore", .product(name: "Logging", package: "swift-log")], path: "Tests/TestSupport"),
        // org-example-test: a format defined only here, that the server, kit and conformance tests register; not in any product.
        .target(name: "ExampleFormat", dependencies: ["Verifier", "MdocTesting", "Mdoc", "MdocModel", "MdocTrust", "CBOR", "CryptoCore"],
                path: "Tests/ExampleFormat"),
        .testTarget(name: "CBORTests", dependencies: ["CBOR", "TestSupport"]),
        .testTarget(name: "CryptoCoreTests", dependencies: ["CryptoCore", "KitCertificates", "TestSupport"]),
        .testTarget(name: "HPKETests", dependencies: ["HPKE", "CryptoCore", "TestSupport"]),
        .testTarget(name: "MdocTests", dependencies: ["Mdoc", "MdocModel", "MdocTrust", "CBOR", "CryptoCore", "CZlib", "TestSupport", "MdocTesting", "KitCertificates", "Verifier"]),
        .testTarget(name: "CLITests", dependencies: ["mdocverify", "ExampleFormat", "MdocConformance", "MdocTesting", "MdocTestingServer", "Verifier", "Mdoc", "MdocModel", "MdocTrust", "CryptoCore", "TestSupport"]),
        .testTarget(name: "MdocConformanceTests", dependencies: ["MdocConformance", "MdocTesting", "Verifier", "MdocModel", "CryptoCore"]),
        .testTarget(name: "VerifierTests", dependencies: ["Verifier", "Mdoc", "MdocModel", "MdocTrust", "HPKE", "CBOR", "CryptoCore", "TestSupport", "MdocTesting"]),
        .testTarget(
            name: "VerifyServerTests",
            dependencies: ["VerifyServer", "verify-server", "ExampleFormat", "MdocConformance", "Verifier", "Mdoc", "MdocModel", "MdocTrust", "CryptoCore", "MdocTesting", "MdocTestingServer", "KitCertificates",
                           "TestSupport", "LoopbackClient",
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                           .product(name: "Logging", package: "swift-log"),
                           // The hung-database tests hold database locks from a connection of their own.
                           .product(name: "PostgresNIO", package: "postgres-nio"),
                           .product(name: "SQLiteNIO", package: "sqlite-nio"),
                           .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                           // The DocC article's own-route example runs through Hummingbird's test client.
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "HummingbirdTesting", package: "hummingbird"),
                           .product(name: "Tracing", package: "swift-distributed-tracing"),
                           // The connection cap's handler on channels with chosen peer addresses.
                           .product(name: "NIOEmbedded", package: "swift-nio"),
                           .product(name: "Yams", package: "Yams")]
        ),
        .testTarget(name: "FuzzRegressionTests", dependencies: ["FuzzHarness", "fuzz-verifier"], exclude: ["Regressions"]),
        .testTarget(name: "RevocationFetchTests", dependencies: ["RevocationFetch", "MdocTesting", "MdocTestingServer", "Verifier", "Mdoc", "MdocModel", "MdocTrust", "CryptoCore", "TestSupport",
                                                               .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "MdocTestingTests",
            dependencies: ["MdocTesting", "KitCertificates", "Verifier", "Mdoc", "MdocModel", "MdocTrust", "HPKE", "CBOR", "CryptoCore", "TestSupport", "mdocverify",
                           "ExampleFormat",
                           .product(name: "Crypto", package: "swift-crypto")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
