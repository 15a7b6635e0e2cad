import TestSupport
import CryptoCore
import Testing

@Suite("Digests, HMAC, HKDF")
struct DigestTests {
    @Test("SHA-2 of \"abc\" (FIPS 180-4 examples)", arguments: [
        (DigestAlgorithm.sha256, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (.sha384, "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"),
        (.sha512, "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"),
    ])
    func sha2(algorithm: DigestAlgorithm, expected: String) {
        let abc: [UInt8] = Array("abc".utf8)
        #expect(Digest.hash(algorithm, abc) == hex(expected))
        #expect(Digest.hash(algorithm, abc).count == algorithm.outputByteCount)
        // Slice and raw-buffer overloads hash the same bytes without copying.
        let padded: [UInt8] = [0xFF] + abc + [0xFF]
        #expect(Digest.hash(algorithm, padded[1..<4]) == hex(expected))
        #expect(abc.withUnsafeBytes { Digest.hash(algorithm, $0) } == hex(expected))
        // The allocation-free comparison agrees, and refuses a changed byte or a truncated digest.
        let digest = hex(expected)
        #expect(Digest.matches(algorithm, abc, digest))
        #expect(Digest.matches(algorithm, padded[1..<4], digest))
        #expect(!Digest.matches(algorithm, abc, [digest[0] ^ 1] + digest.dropFirst()))
        #expect(!Digest.matches(algorithm, abc, Array(digest.dropLast())))
        #expect(!Digest.matches(algorithm, Array("abd".utf8), digest))
    }

    @Test("SHA-256 of empty input")
    func emptyDigest() {
        #expect(Digest.hash(.sha256, [UInt8]()) == hex("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"))
    }

    @Test("HMAC RFC 4231 test case 2", arguments: [
        (DigestAlgorithm.sha256, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        (.sha384, "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649"),
        (.sha512, "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"),
    ])
    func hmac(algorithm: DigestAlgorithm, expected: String) {
        let key: [UInt8] = Array("Jefe".utf8)
        let data: [UInt8] = Array("what do ya want for nothing?".utf8)
        #expect(HMAC.authenticate(algorithm, key: key, data: data) == hex(expected))
        #expect(HMAC.authenticate(algorithm, key: key[...], data: data[...]) == hex(expected))
    }

    @Test("HKDF RFC 5869 test case 1 (SHA-256)")
    func hkdfCase1() throws {
        let ikm = [UInt8](repeating: 0x0B, count: 22)
        let salt = hex("000102030405060708090a0b0c")
        let info = hex("f0f1f2f3f4f5f6f7f8f9")
        let prk = HKDF.extract(.sha256, salt: salt, ikm: ikm)
        #expect(prk == hex("077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5"))
        let okm = try HKDF.expand(.sha256, prk: prk, info: info, length: 42)
        let expected = hex("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
        #expect(okm == expected)
        #expect(try HKDF.derive(.sha256, ikm: ikm, salt: salt, info: info, length: 42) == expected)
    }

    @Test("HKDF RFC 5869 test case 3 (empty salt and info)")
    func hkdfCase3() throws {
        let ikm = [UInt8](repeating: 0x0B, count: 22)
        let prk = HKDF.extract(.sha256, salt: [], ikm: ikm)
        #expect(prk == hex("19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04"))
        #expect(try HKDF.expand(.sha256, prk: prk, info: [], length: 42)
            == hex("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"))
    }

    @Test("Empty keys and inputs")
    func emptyInputs() throws {
        #expect(HMAC.authenticate(.sha256, key: [], data: [])
            == hex("b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad"))
        // HKDF-Extract is HMAC(salt, IKM), also for an empty IKM.
        let salt: [UInt8] = [1, 2, 3]
        #expect(HKDF.extract(.sha384, salt: salt, ikm: []) == HMAC.authenticate(.sha384, key: salt, data: []))
        #expect(HKDF.extract(.sha512, salt: [], ikm: [])
            == HMAC.authenticate(.sha512, key: [UInt8](repeating: 0, count: 64), data: []))
        // HKDF-Expand with L <= HashLen and empty info is HMAC(PRK, 0x01).
        let prk = [UInt8](repeating: 7, count: 32)
        #expect(try HKDF.expand(.sha256, prk: prk, info: [], length: 32) == HMAC.authenticate(.sha256, key: prk, data: [1]))
    }

    @Test("HKDF-Expand length bounds")
    func hkdfBounds() throws {
        let prk = [UInt8](repeating: 1, count: 32)
        #expect(try HKDF.expand(.sha256, prk: prk, info: [], length: 255 * 32).count == 255 * 32)
        #expect(throws: CryptoError.self) { try HKDF.expand(.sha256, prk: prk, info: [], length: 255 * 32 + 1) }
        #expect(throws: CryptoError.self) { try HKDF.expand(.sha256, prk: prk, info: [], length: 0) }
        #expect(throws: CryptoError.self) { try HKDF.expand(.sha256, prk: [1, 2, 3], info: [], length: 16) }
    }
}

@Suite("AEAD")
struct AEADTests {
    @Test("Seal/open round trip, tampering and sizes", arguments: AEADAlgorithm.allCases)
    func roundTrip(algorithm: AEADAlgorithm) throws {
        let key = SecureRandom.bytes(algorithm.keyByteCount)
        let nonce = SecureRandom.bytes(algorithm.nonceByteCount)
        let plaintext: [UInt8] = Array("attack at dawn".utf8)
        let aad: [UInt8] = [1, 2, 3]
        let sealed = try algorithm.seal(key: key, nonce: nonce, plaintext: plaintext, aad: aad)
        #expect(sealed.count == plaintext.count + algorithm.tagByteCount)
        #expect(try algorithm.open(key: key, nonce: nonce, ciphertext: sealed, aad: aad) == plaintext)

        // Empty plaintext and empty AAD.
        let tagOnly = try algorithm.seal(key: key, nonce: nonce, plaintext: [UInt8](), aad: [UInt8]())
        #expect(tagOnly.count == algorithm.tagByteCount)
        #expect(try algorithm.open(key: key, nonce: nonce, ciphertext: tagOnly, aad: [UInt8]()) == [])

        for index in [0, plaintext.count - 1, sealed.count - 1] {
            var tampered = sealed
            tampered[index] ^= 0x01
            #expect(throws: CryptoError(.authenticationFailed, "\(algorithm.rawValue) authentication failed")) {
                try algorithm.open(key: key, nonce: nonce, ciphertext: tampered, aad: aad)
            }
        }
        let wrongAAD: [UInt8] = [1, 2, 4]
        #expect(throws: CryptoError.self) { try algorithm.open(key: key, nonce: nonce, ciphertext: sealed, aad: wrongAAD) }
        #expect(throws: CryptoError.self) { try algorithm.open(key: key, nonce: nonce, ciphertext: Array(sealed.prefix(15)), aad: aad) }
        #expect(throws: CryptoError.self) { try algorithm.seal(key: Array(key.dropLast()), nonce: nonce, plaintext: plaintext, aad: aad) }
        #expect(throws: CryptoError.self) { try algorithm.seal(key: key, nonce: [UInt8](repeating: 0, count: 16), plaintext: plaintext, aad: aad) }
    }

    @Test("AES-128-GCM known answer (GCM spec test case 3)")
    func aesGCMKnownAnswer() throws {
        let key = hex("feffe9928665731c6d6a8f9467308308")
        let nonce = hex("cafebabefacedbaddecaf888")
        let plaintext = hex("""
            d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525\
            b16aedf5aa0de657ba637b391aafd255
            """)
        let expected = hex("""
            42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa05\
            1ba30b396a0aac973d58e091473f5985 4d5c2af327cd64a62cf35abd2ba6fab4
            """)
        #expect(try AEADAlgorithm.aes128GCM.seal(key: key, nonce: nonce, plaintext: plaintext, aad: [UInt8]()) == expected)
        #expect(try AEADAlgorithm.aes128GCM.open(key: key, nonce: nonce, ciphertext: expected, aad: [UInt8]()) == plaintext)
    }
}

@Suite("Utilities")
struct UtilityTests {
    @Test func constantTimeComparison() {
        let a: [UInt8] = [1, 2, 3]
        #expect(constantTimeEquals(a, [1, 2, 3] as [UInt8]))
        #expect(!constantTimeEquals(a, [1, 2, 4] as [UInt8]))
        #expect(!constantTimeEquals(a, [1, 2] as [UInt8]))
        #expect(constantTimeEquals([UInt8](), [UInt8]()))
        let b: [UInt8] = [9, 1, 2, 3]
        #expect(constantTimeEquals(a, b[1...]))
    }

    @Test func randomAndZeroize() {
        var bytes = SecureRandom.bytes(64)
        #expect(bytes.count == 64)
        #expect(bytes != SecureRandom.bytes(64))
        bytes.zeroize()
        #expect(bytes == [UInt8](repeating: 0, count: 64))
        #expect(SecureRandom.bytes(0).isEmpty)
    }
}
