import CryptoCore

extension HPKE.KEM {
    /// DeriveKeyPair(ikm) (RFC 9180 §7.1.3): rejection sampling with a bitmask for the NIST curves,
    /// LabeledExpand("sk") for X25519.
    func deriveKeyPair(ikm: UnsafeRawBufferPointer) throws -> PrivateKey {
        let kdf = labeled
        var dkpPRK = kdf.extract(salt: UnsafeRawBufferPointer(start: nil, count: 0), label: "dkp_prk", ikm: ikm)
        defer { dkpPRK.zeroize() }
        do {
            switch self {
            case .x25519HKDFSHA256:
                var sk = try kdf.expand(prk: dkpPRK, label: "sk", info: [], length: privateKeyByteCount)
                defer { sk.zeroize() }
                return try PrivateKey(curve: curve, rawScalar: sk)
            case .p256HKDFSHA256, .p384HKDFSHA384, .p521HKDFSHA512:
                let bitmask: UInt8 = self == .p521HKDFSHA512 ? 0x01 : 0xFF
                for counter in 0...255 {
                    var candidate = try kdf.expand(prk: dkpPRK, label: "candidate", info: [UInt8(counter)],
                                                   length: privateKeyByteCount)
                    defer { candidate.zeroize() }
                    candidate[0] &= bitmask
                    if let key = try candidate.withUnsafeBytes({ try PrivateKey.fromScalarIfInRange(curve: curve, $0) }) {
                        return key
                    }
                }
                throw HPKEError(.internalFailure, "DeriveKeyPair: no valid scalar after 256 candidates")
            }
        } catch let error as CryptoError {
            throw HPKEError(.internalFailure, "DeriveKeyPair: \(error.message)")
        }
    }

    /// ExtractAndExpand(dh, kem_context) (RFC 9180 §4.1).
    func extractAndExpand(dh: [UInt8], kemContext: [UInt8]) throws -> [UInt8] {
        let kdf = labeled
        var eaePRK = dh.withUnsafeBytes {
            kdf.extract(salt: UnsafeRawBufferPointer(start: nil, count: 0), label: "eae_prk", ikm: $0)
        }
        defer { eaePRK.zeroize() }
        return try kdf.expand(prk: eaePRK, label: "shared_secret", info: kemContext, length: sharedSecretByteCount)
    }

    /// Encap / AuthEncap (RFC 9180 §4.1). `ephemeralKey` fixes skE (test vectors); otherwise a fresh key
    /// is generated. Returns the shared secret (caller zeroizes) and enc.
    func encapsulate(recipientKey pkR: PublicKey, senderKey skS: PrivateKey?,
                     ephemeralKey: PrivateKey?) throws -> (sharedSecret: [UInt8], enc: [UInt8]) {
        try requireCurve(pkR.curve, of: "recipient")
        try requireCurve(skS?.curve, of: "sender")
        try requireCurve(ephemeralKey?.curve, of: "ephemeral")
        let skE: PrivateKey
        do {
            skE = try ephemeralKey ?? PrivateKey.generate(curve)
        } catch let error as CryptoError {
            throw HPKEError(.internalFailure, error.message)
        }
        let enc = skE.publicKeyBytes
        let pkRm = pkR.uncompressedPoint

        var dh = try agree(skE, pkR, failure: .invalidKey, role: "recipient public key")
        defer { dh.zeroize() }
        if let skS {
            // AuthEncap: dh = DH(skE, pkR) || DH(skS, pkR)
            var dhS = try agree(skS, pkR, failure: .invalidKey, role: "recipient public key")
            concatenateSecrets(&dh, &dhS)
        }
        let sharedSecret = try extractAndExpand(dh: dh, kemContext: kemContext(enc: enc, pkRm: pkRm, pkSm: skS?.publicKeyBytes))
        return (sharedSecret, enc)
    }

    /// Decap / AuthDecap (RFC 9180 §4.1). `enc` is validated (length, uncompressed form, on the curve;
    /// an all-zero X25519 result is rejected) and imported once; no further re-validation.
    func decapsulate(enc: UnsafeRawBufferPointer, recipientKey skR: PrivateKey,
                     senderPublicKey pkS: PublicKey?) throws -> [UInt8] {
        try requireCurve(skR.curve, of: "recipient")
        try requireCurve(pkS?.curve, of: "sender")
        let pkE: PublicKey
        do {
            pkE = try PublicKey(curve: curve, uncompressedPoint: enc)
        } catch let error as CryptoError {
            throw HPKEError(.invalidEncapsulatedKey, error.message)
        }
        var dh = try agree(skR, pkE, failure: .invalidEncapsulatedKey, role: "encapsulated key")
        defer { dh.zeroize() }
        if let pkS {
            // AuthDecap: dh = DH(skR, pkE) || DH(skR, pkS)
            var dhS = try agree(skR, pkS, failure: .invalidKey, role: "sender public key")
            concatenateSecrets(&dh, &dhS)
        }
        return try extractAndExpand(dh: dh, kemContext: kemContext(enc: enc, pkRm: skR.publicKeyBytes, pkSm: pkS?.uncompressedPoint))
    }

    /// Throws `invalidKey` when the `role` key (nil: not given) is not on the KEM's curve.
    private func requireCurve(_ keyCurve: Curve?, of role: String) throws {
        if let keyCurve, keyCurve != curve {
            throw HPKEError(.invalidKey, "\(role) key is \(keyCurve.rawValue), the KEM needs \(curve.rawValue)")
        }
    }

    /// kem_context = enc || pkRm, followed by pkSm in the Auth modes.
    private func kemContext(enc: some Sequence<UInt8>, pkRm: [UInt8], pkSm: [UInt8]?) -> [UInt8] {
        var context = [UInt8]()
        context.reserveCapacity(3 * publicKeyByteCount)
        context.append(contentsOf: enc)
        context.append(contentsOf: pkRm)
        if let pkSm { context.append(contentsOf: pkSm) }
        return context
    }

    /// first = first || second, without leaving a copy of either in freed memory (a plain append could
    /// reallocate and release the old buffer unwiped). Both inputs are zeroized.
    private func concatenateSecrets(_ first: inout [UInt8], _ second: inout [UInt8]) {
        var combined = [UInt8]()
        combined.reserveCapacity(first.count + second.count)
        combined.append(contentsOf: first)
        combined.append(contentsOf: second)
        first.zeroize()
        second.zeroize()
        first = combined
    }

    private func agree(_ privateKey: PrivateKey, _ publicKey: PublicKey, failure: HPKEError.Kind,
                       role: String) throws -> [UInt8] {
        do {
            return try privateKey.sharedSecret(with: publicKey)
        } catch let error as CryptoError {
            throw HPKEError(error.kind == .internalFailure ? .internalFailure : failure, "\(role): \(error.message)")
        }
    }
}
