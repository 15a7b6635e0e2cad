import ArgumentParser
import CryptoCore
import Foundation
import HPKE
import Mdoc
import Verifier

/// Throughput of full verifications of the bundled Apple sample, per-stage time, and the OpenSSL primitive
/// costs measured in the same process. The floor is the summed primitive cost of one verification; the
/// last line says how close the verifier gets to it.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Benchmark verification of the bundled Apple sample against the OpenSSL primitive floor."
    )

    @Option(help: "Seconds to spend verifying (after one warm-up verification).")
    var seconds: Double = 3

    func run() throws {
        try runReportingExit {
            let (verifier, response, session, time) = try Sample.prepare()
            let warmUp = verifier.verify(encryptedData: response, session: session, at: time)
            guard warmUp.verified else {
                throw UsageFailure("the bundled sample did not verify: \(warmUp.primaryError?.description ?? "?")")
            }
            let clock = ContinuousClock()
            var timings = StageTimings()
            var count = 0
            let start = clock.now
            let budget = Duration.milliseconds(Int64(max(seconds, 0.1) * 1000))
            while clock.now - start < budget {
                let report = verifier.verify(encryptedData: response, session: session, at: time)
                timings += report.timings
                count += 1
            }
            let elapsed = clock.now - start
            let perVerification = micros(elapsed) / Double(count)

            let primitives = try PrimitiveCosts.measure()
            print("mdocverify bench: Apple sample, \(count) verifications in \(format(micros(elapsed) / 1e6)) s, one core")
            print("verifications/second: \(format(Double(count) / (micros(elapsed) / 1e6), digits: 0))")
            print("per verification: \(format(perVerification)) µs")
            print("stages (µs per verification): decode \(format(micros(timings.decode) / Double(count))), "
                + "hpke \(format(micros(timings.hpke) / Double(count))), issuer \(format(micros(timings.issuer) / Double(count))), "
                + "chain \(format(micros(timings.chain) / Double(count))), digests \(format(micros(timings.digests) / Double(count))), "
                + "device \(format(micros(timings.device) / Double(count)))")
            print("OpenSSL primitives (µs per operation, this process):")
            for (name, cost) in primitives.table { print("  \(name): \(format(cost))") }
            print("floor (summed primitive cost of one verification): \(format(primitives.floor)) µs")
            print("share of floor: \(format(primitives.floor / perVerification, digits: 2))")
            return .verified
        }
    }

    private func micros(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
    }

    private func format(_ value: Double, digits: Int = 1) -> String {
        String(format: "%.\(digits)f", value)
    }
}

/// Per-operation cost of the primitives one Apple verification needs, measured here and now.
struct PrimitiveCosts {
    var table: [(String, Double)] = []
    var floor: Double = 0

    static func measure() throws -> PrimitiveCosts {
        var costs = PrimitiveCosts()
        let recipient = try PrivateKey.generate(.p256)
        let sender = try PrivateKey.generate(.p256)
        let senderPoint = sender.publicKey.uncompressedPoint
        let signer = try PrivateKey.generate(.p256)
        let message = [UInt8](repeating: 0x5A, count: 1300)
        let signature = try signer.signature(for: message, digest: .sha256)
        let verifyKey = signer.publicKey
        let aesKey = [UInt8](repeating: 1, count: 16)
        let nonce = [UInt8](repeating: 2, count: 12)
        let sealed = try AEADAlgorithm.aes128GCM.seal(key: aesKey, nonce: nonce, plaintext: [UInt8](repeating: 3, count: 6148), aad: [])
        let item = [UInt8](repeating: 4, count: 120)
        let senderKey = sender.publicKey

        let importCost = try time { _ = try PublicKey(curve: .p256, uncompressedPoint: senderPoint) }
        let ecdh = try time { _ = try recipient.sharedSecret(with: senderKey) }
        let ecdsa = try time { _ = verifyKey.isValidSignature(signature, for: message, digest: .sha256) }
        let hkdf = try time { _ = try HKDF.derive(.sha256, ikm: aesKey, salt: nonce, info: item, length: 32) }
        let gcm = try time { _ = try AEADAlgorithm.aes128GCM.open(key: aesKey, nonce: nonce, ciphertext: sealed, aad: []) }
        let sha = try time { _ = Digest.hash(.sha256, item) }

        costs.table = [
            ("P-256 public key import (on-curve check)", importCost),
            ("ECDH P-256 derive", ecdh),
            ("ECDSA P-256 verify (1.3 KB message)", ecdsa),
            ("HKDF-SHA256 (one call)", hkdf),
            ("AES-128-GCM open, 6 KB", gcm),
            ("SHA-256, 120 B", sha),
        ]
        // One Apple verification: import pkEm and the device key, one ECDH, HPKE's eight HKDF steps, one
        // AES-GCM open, two ECDSA verifications (issuerAuth, deviceSignature), 22 value digests; the chain
        // result comes from the cache.
        costs.floor = 2 * importCost + ecdh + 8 * hkdf + gcm + 2 * ecdsa + 22 * sha
        return costs
    }

    /// Mean µs per call over enough calls to take ~150 ms.
    private static func time(_ body: () throws -> Void) throws -> Double {
        let clock = ContinuousClock()
        try body()
        var calls = 0
        let start = clock.now
        while clock.now - start < .milliseconds(150) {
            try body()
            calls += 1
        }
        let (s, atto) = (clock.now - start).components
        return (Double(s) * 1e6 + Double(atto) / 1e12) / Double(calls)
    }
}
