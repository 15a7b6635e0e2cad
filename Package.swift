// swift-tools-version: 6.0
import PackageDescription

// Data flow, lowest first: system libraries → CShims → CBOR / CryptoCore → HPKE → Mdoc → Verifier → front-ends.
// A module only imports modules to its left.
let opensslSettings: [CSetting] = [.define("OPENSSL_NO_DEPRECATED")]

let package = Package(
    name: "WalletVerifier",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Verifier", targets: ["Verifier"]),
        .library(name: "MdocTesting", targets: ["MdocTesting"]),
        .executable(name: "mdocverify", targets: ["mdocverify"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Test-only: an independent HPKE/ECDSA implementation to cross-check MdocTesting's output.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3" ..< "5.0.0"),
    ],
    targets: [
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CLibCBOR", pkgConfig: "libcbor", providers: [.apt(["libcbor-dev"])]),
        .target(name: "CShims", dependencies: ["COpenSSL", "CLibCBOR"], cSettings: opensslSettings),
        .target(name: "CBOR", dependencies: ["CShims", "CLibCBOR"]),
        .target(name: "CryptoCore", dependencies: ["CShims", "COpenSSL"]),
        .target(name: "HPKE", dependencies: ["CryptoCore", "CShims", "COpenSSL"]),
        .target(name: "Mdoc", dependencies: ["CBOR", "CryptoCore"]),
        .target(name: "Verifier", dependencies: ["Mdoc", "HPKE", "CBOR", "CryptoCore"]),
        // Signed test responses from a test PKI, with named faults (compliance-test kit).
        .target(name: "MdocTesting", dependencies: ["Verifier", "Mdoc", "HPKE", "CBOR", "CryptoCore"]),
        .executableTarget(
            name: "mdocverify",
            dependencies: ["Verifier", "MdocTesting", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // Loads the external vectors in TestVectors/ for the test targets; not part of any product.
        .target(name: "TestSupport", dependencies: ["CryptoCore"], path: "Tests/TestSupport"),
        .testTarget(name: "CBORTests", dependencies: ["CBOR", "TestSupport"]),
        .testTarget(name: "CryptoCoreTests", dependencies: ["CryptoCore", "TestSupport"]),
        .testTarget(name: "HPKETests", dependencies: ["HPKE", "CryptoCore", "TestSupport"]),
        .testTarget(name: "MdocTests", dependencies: ["Mdoc", "CBOR", "CryptoCore", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["mdocverify", "MdocTesting", "Verifier", "Mdoc", "CryptoCore", "TestSupport"]),
        .testTarget(name: "VerifierTests", dependencies: ["Verifier", "Mdoc", "HPKE", "CBOR", "CryptoCore", "TestSupport", "MdocTesting"]),
        .testTarget(
            name: "MdocTestingTests",
            dependencies: ["MdocTesting", "Verifier", "Mdoc", "HPKE", "CBOR", "CryptoCore", "TestSupport", "mdocverify",
                           .product(name: "Crypto", package: "swift-crypto")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
