import CryptoCore
import HPKE

/// The OpenSSL operations one verification of a case cannot avoid. The chain result and the document signer's key
/// come from the certificate cache, so they are not part of it.
struct FloorRecipe {
    let issuerCurve: Curve
    let issuerDigest: DigestAlgorithm
    /// Size of the issuer-signed Sig_structure (the MSO and its headers), approximately; hashing 1 KB costs ~1 µs.
    let issuerMessageBytes: Int
    let deviceMessageBytes: Int
    let ciphertextBytes: Int
    let valueDigests: Int
    let valueDigestBytes: Int
}

/// Per-operation cost of the floor's primitives, measured in this process. `measure` can run several times; each
/// operation keeps its lowest mean, as the verifications keep theirs, so noise from a shared machine does not
/// move one side of the ratio only.
struct PrimitiveCosts {
    private(set) var best: [String: Double] = [:]
    private let recipe: FloorRecipe
    private let fixtures: Fixtures

    private struct Fixtures {
        let recipient: PrivateKey
        let senderKey: PublicKey
        let senderPoint: [UInt8]
        let issuerKey: PublicKey
        let issuerMessage: [UInt8]
        let issuerSignature: [UInt8]
        let deviceKey: PublicKey
        let deviceMessage: [UInt8]
        let deviceSignature: [UInt8]
        let sealed: [UInt8]
        let item: [UInt8]
    }

    private static let aesKey = [UInt8](repeating: 1, count: 16)
    private static let nonce = [UInt8](repeating: 2, count: 12)
    private static let prk = [UInt8](repeating: 5, count: 32)

    init(_ recipe: FloorRecipe) throws {
        self.recipe = recipe
        let sender = try PrivateKey.generate(.p256)
        let issuer = try PrivateKey.generate(recipe.issuerCurve)
        let device = try PrivateKey.generate(.p256)
        let issuerMessage = [UInt8](repeating: 0x5A, count: recipe.issuerMessageBytes)
        let deviceMessage = [UInt8](repeating: 0x5B, count: recipe.deviceMessageBytes)
        fixtures = Fixtures(
            recipient: try PrivateKey.generate(.p256), senderKey: sender.publicKey, senderPoint: sender.publicKey.uncompressedPoint,
            issuerKey: issuer.publicKey, issuerMessage: issuerMessage,
            issuerSignature: try issuer.signature(for: issuerMessage, digest: recipe.issuerDigest),
            deviceKey: device.publicKey, deviceMessage: deviceMessage,
            deviceSignature: try device.signature(for: deviceMessage, digest: .sha256),
            sealed: try AEADAlgorithm.aes128GCM.seal(key: Self.aesKey, nonce: Self.nonce,
                                                     plaintext: [UInt8](repeating: 3, count: max(recipe.ciphertextBytes - 16, 0)), aad: []),
            item: [UInt8](repeating: 4, count: recipe.valueDigestBytes))
    }

    /// The operations, how many of each one verification needs, and a call of each.
    private var operations: [(name: String, count: Int, run: () throws -> Void)] {
        let f = fixtures
        let recipe = recipe
        return [
            ("P-256 public key import (on-curve check)", 2, { _ = try PublicKey(curve: .p256, uncompressedPoint: f.senderPoint) }),
            ("ECDH P-256 derive", 1, { _ = try f.recipient.sharedSecret(with: f.senderKey) }),
            // Single-shot HPKE open (base mode, psk_id_hash precomputed): Extract for eae_prk, info_hash and secret;
            // Expand for shared_secret, key and base_nonce. Each is one OpenSSL EVP_KDF call.
            ("HKDF-SHA256 extract (one call)", 3, { _ = HKDF.extract(.sha256, salt: Self.prk, ikm: f.item) }),
            ("HKDF-SHA256 expand (one call)", 3, { _ = try HKDF.expand(.sha256, prk: Self.prk, info: f.item, length: 32) }),
            ("AES-128-GCM open, \(recipe.ciphertextBytes) B", 1,
             { _ = try AEADAlgorithm.aes128GCM.open(key: Self.aesKey, nonce: Self.nonce, ciphertext: f.sealed, aad: []) }),
            ("ECDSA \(recipe.issuerCurve.rawValue) verify, issuer (\(recipe.issuerMessageBytes) B)", 1,
             { _ = f.issuerKey.isValidSignature(f.issuerSignature, for: f.issuerMessage, digest: recipe.issuerDigest) }),
            ("ECDSA P-256 verify, device (\(recipe.deviceMessageBytes) B)", 1,
             { _ = f.deviceKey.isValidSignature(f.deviceSignature, for: f.deviceMessage, digest: .sha256) }),
            ("SHA-256, \(recipe.valueDigestBytes) B (value digests)", recipe.valueDigests, { _ = Digest.hash(.sha256, f.item) }),
        ]
    }

    /// One round: every operation for about `milliseconds` each.
    mutating func measure(milliseconds: Int) throws {
        for operation in operations {
            let cost = try Self.time(milliseconds: milliseconds, operation.run)
            best[operation.name] = min(best[operation.name] ?? .infinity, cost)
        }
    }

    var table: [(name: String, count: Int, cost: Double)] {
        operations.map { ($0.name, $0.count, best[$0.name] ?? .nan) }
    }

    /// Summed cost of one verification, µs.
    var floor: Double { table.reduce(0) { $0 + Double($1.count) * $1.cost } }

    /// Mean µs per call over about `milliseconds`.
    private static func time(milliseconds: Int, _ body: () throws -> Void) throws -> Double {
        let clock = ContinuousClock()
        try body()
        var calls = 0
        let start = clock.now
        while clock.now - start < .milliseconds(milliseconds) {
            try body()
            calls += 1
        }
        return (clock.now - start).microseconds / Double(calls)
    }
}

extension Duration {
    var microseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
    }
}
