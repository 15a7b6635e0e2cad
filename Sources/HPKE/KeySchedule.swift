import CryptoCore

extension HPKE {
    /// Output of KeyScheduleS/R (RFC 9180 §5.1) plus the intermediates the test vectors list.
    package struct KeySchedule {
        package var keyScheduleContext: [UInt8]
        package var secret: [UInt8]
        package var key: [UInt8]
        package var baseNonce: [UInt8]
        /// Nil when the caller asked not to derive it (single-shot open never exports).
        package var exporterSecret: [UInt8]?

        mutating func zeroize() {
            secret.zeroize()
            key.zeroize()
            baseNonce.zeroize()
            exporterSecret?.zeroize()
        }
    }

    /// The mode implied by the optional PSK and sender key.
    static func mode(psk: PSK?, authenticated: Bool) -> Mode {
        switch (psk != nil, authenticated) {
        case (false, false): return .base
        case (true, false): return .psk
        case (false, true): return .auth
        case (true, true): return .authPSK
        }
    }

    /// VerifyPSKInputs (RFC 9180 §5.1): psk and psk_id both present or both absent, and present exactly
    /// in the PSK modes. An absent PSK is nil; a PSK value with an empty key or id is inconsistent.
    static func verifyPSKInputs(mode: Mode, psk: PSK?) throws {
        if let psk {
            guard !psk.key.isEmpty, !psk.id.isEmpty else {
                throw HPKEError(.invalidPSK, "inconsistent PSK inputs: psk and psk_id must both be non-empty")
            }
            guard psk.key.count >= 32 else {
                throw HPKEError(.invalidPSK, "PSK must have at least 32 bytes")
            }
        }
        guard mode.usesPSK == (psk != nil) else {
            throw HPKEError(.invalidPSK, mode.usesPSK ? "missing PSK for a PSK mode" : "PSK provided in a non-PSK mode")
        }
    }

    /// KeySchedule<ROLE>(mode, shared_secret, info, psk, psk_id).
    package static func keySchedule(suite: Ciphersuite, mode: Mode, sharedSecret: [UInt8],
                                    info: UnsafeRawBufferPointer, psk: PSK?,
                                    deriveExporterSecret: Bool = true) throws -> KeySchedule {
        try verifyPSKInputs(mode: mode, psk: psk)
        let kdf = suite.labeled
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)

        let pskIDHash: [UInt8]
        if let psk {
            pskIDHash = psk.id.withUnsafeBytes { kdf.extract(salt: empty, label: "psk_id_hash", ikm: $0) }
        } else {
            pskIDHash = EmptyPSKIDHash.value(for: suite)
        }
        let infoHash = kdf.extract(salt: empty, label: "info_hash", ikm: info)

        var context = [UInt8]()
        context.reserveCapacity(1 + pskIDHash.count + infoHash.count)
        context.append(mode.rawValue)
        context.append(contentsOf: pskIDHash)
        context.append(contentsOf: infoHash)

        let pskKey = psk?.key ?? []
        var secret = sharedSecret.withUnsafeBytes { sharedSecret in
            pskKey.withUnsafeBytes { kdf.extract(salt: sharedSecret, label: "secret", ikm: $0) }
        }
        do {
            var result = KeySchedule(keyScheduleContext: context, secret: secret, key: [], baseNonce: [],
                                     exporterSecret: nil)
            if suite.aead != .exportOnly {
                result.key = try kdf.expand(prk: secret, label: "key", info: context, length: suite.aead.keyByteCount)
                result.baseNonce = try kdf.expand(prk: secret, label: "base_nonce", info: context,
                                                  length: suite.aead.nonceByteCount)
            }
            if deriveExporterSecret {
                result.exporterSecret = try kdf.expand(prk: secret, label: "exp", info: context,
                                                       length: suite.kdf.hashByteCount)
            }
            return result
        } catch {
            secret.zeroize()
            throw error
        }
    }

    /// psk_id_hash for the default (empty) psk_id depends only on the suite: computed once per process for
    /// every suite (48 HKDF-Extract calls on first use) instead of once per message.
    enum EmptyPSKIDHash {
        private static let table: [Ciphersuite: [UInt8]] = {
            var table = [Ciphersuite: [UInt8]]()
            let empty = UnsafeRawBufferPointer(start: nil, count: 0)
            for kem in KEM.allCases {
                for kdf in KDF.allCases {
                    for aead in AEAD.allCases {
                        let suite = Ciphersuite(kem: kem, kdf: kdf, aead: aead)
                        table[suite] = suite.labeled.extract(salt: empty, label: "psk_id_hash", ikm: empty)
                    }
                }
            }
            return table
        }()

        static func value(for suite: Ciphersuite) -> [UInt8] {
            table[suite] ?? suite.labeled.extract(salt: UnsafeRawBufferPointer(start: nil, count: 0), label: "psk_id_hash",
                                                  ikm: UnsafeRawBufferPointer(start: nil, count: 0))
        }
    }
}
