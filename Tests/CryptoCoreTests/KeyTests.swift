import TestSupport
import CryptoCore
import Foundation
import Testing

let nistCurves: [Curve] = [.p256, .p384, .p521]
let ecCurves: [Curve] = Curve.allCases.filter(\.isEC)
let p256Order = hex("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")

@Suite("Public key import and validation")
struct PublicKeyValidationTests {
    @Test("Valid points import; x/y and 0x04||X||Y agree", arguments: ecCurves)
    func validPoints(curve: Curve) throws {
        let point = try PrivateKey.generate(curve).publicKey.uncompressedPoint
        #expect(point.count == curve.publicKeyByteCount)
        #expect(point[0] == 0x04)
        let n = curve.coordinateByteCount
        let fromXY = try PublicKey(curve: curve, x: Array(point[1...n]), y: Array(point[(n + 1)...]))
        let fromPoint = try PublicKey(curve: curve, uncompressedPoint: point)
        #expect(fromXY.uncompressedPoint == point)
        #expect(fromPoint == fromXY)
    }

    @Test("Invalid points are rejected with invalidKey", arguments: nistCurves)
    func invalidPoints(curve: Curve) throws {
        let point = try PrivateKey.generate(curve).publicKey.uncompressedPoint
        let n = curve.coordinateByteCount
        var offCurve = point
        offCurve[offCurve.count - 1] ^= 0x01
        var xTooLarge = point
        for index in 1...n { xTooLarge[index] = 0xFF }
        let compressed = [UInt8(2 + (point.last! & 1))] + point[1...n]
        let cases: [(String, [UInt8])] = [
            ("not on the curve", offCurve),
            ("x >= p", xTooLarge),
            ("all-zero coordinates", [0x04] + [UInt8](repeating: 0, count: 2 * n)),
            ("identity encoding", [0x00]),
            ("compressed", compressed),
            ("hybrid prefix", [0x06] + point.dropFirst()),
            ("too short", Array(point.dropLast())),
            ("too long", point + [0]),
            ("empty", []),
        ]
        for (name, bytes) in cases {
            #expect(throws: CryptoError.self, "\(curve) \(name)") {
                try PublicKey(curve: curve, uncompressedPoint: bytes)
            }
            do {
                _ = try PublicKey(curve: curve, uncompressedPoint: bytes)
            } catch let error as CryptoError {
                #expect(error.kind == .invalidKey, "\(curve) \(name)")
            }
        }
        #expect(throws: CryptoError.self) { try PublicKey(curve: curve, x: Array(point[1...n]), y: Array(point[1...n])) }
        #expect(throws: CryptoError.self) { try PublicKey(curve: curve, x: Array(point[1..<n]), y: Array(point[(n + 1)...])) }
        #expect(throws: CryptoError.self) { try PublicKey(curve: .x25519, x: Array(point[1...n]), y: Array(point[(n + 1)...])) }
    }

    @Test("A key of one curve is rejected by another curve's import")
    func wrongCurve() throws {
        let p256Point = try PrivateKey.generate(.p256).publicKey.uncompressedPoint
        #expect(throws: CryptoError.self) { try PublicKey(curve: .p384, uncompressedPoint: p256Point) }
        #expect(throws: CryptoError.self) { try PublicKey(curve: .x25519, uncompressedPoint: p256Point) }
    }

    @Test("OKP raw keys must be 32 bytes", arguments: [Curve.x25519, .ed25519])
    func okpLengths(curve: Curve) throws {
        let key = try PrivateKey.generate(curve).publicKey
        #expect(key.rawRepresentation.count == 32)
        #expect(try PublicKey(curve: curve, rawRepresentation: key.rawRepresentation) == key)
        #expect(throws: CryptoError.self) { try PublicKey(curve: curve, rawRepresentation: [UInt8](repeating: 9, count: 31)) }
        #expect(throws: CryptoError.self) { try PublicKey(curve: curve, rawRepresentation: [UInt8](repeating: 9, count: 33)) }
    }

    @Test("SPKI DER and PEM round trips; malformed input rejected", arguments: Curve.allCases)
    func spki(curve: Curve) throws {
        let key = try PrivateKey.generate(curve).publicKey
        #expect(try PublicKey(spkiDER: key.spkiDER) == key)
        #expect(try PublicKey(pemEncoded: key.pemEncoded) == key)
        #expect(key.pemEncoded.hasPrefix("-----BEGIN PUBLIC KEY-----\n"))
        #expect(throws: CryptoError.self) { try PublicKey(spkiDER: key.spkiDER + [0]) }
        #expect(throws: CryptoError.self) { try PublicKey(spkiDER: Array(key.spkiDER.dropLast())) }
        #expect(throws: CryptoError.self) { try PublicKey(spkiDER: []) }
        #expect(throws: CryptoError.self) { try PublicKey(pemEncoded: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n") }
    }

    @Test("Apple merchant public key: PEM, uncompressed point and pkRHash agree")
    func merchantPublicKey() throws {
        let pem = try PublicKey(pemEncoded: vectorText("apple/in-app-sample/merchant_encryption_public_key.pem"))
        let point = hex(try vectorText("apple/in-app-sample/merchant_encryption_uncompressed_public_key.txt"))
        #expect(pem.curve == .p256)
        #expect(pem.uncompressedPoint == point)
        #expect(Digest.hash(.sha256, point) == hex("b2c00f06b2df645691174f1331ade35141f17e19b3021d07560b4a71fc61818c"))
        let privateKey = try PrivateKey(pemEncoded: vectorText("apple/in-app-sample/merchant_encryption.key"))
        #expect(privateKey.publicKey == pem)
    }
}

@Suite("Private keys")
struct PrivateKeyTests {
    @Test("PKCS#8 / SEC1 PEM and DER, raw scalar round trips", arguments: Curve.allCases)
    func encodings(curve: Curve) throws {
        let key = try PrivateKey.generate(curve)
        let point = key.publicKey.uncompressedPoint

        let pkcs8 = key.pkcs8PEM()
        #expect(pkcs8.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(try PrivateKey(pemEncoded: pkcs8).publicKey.uncompressedPoint == point)
        #expect(try PrivateKey(derEncoded: key.pkcs8DER()).publicKey.uncompressedPoint == point)
        #expect(throws: CryptoError.self) { try PrivateKey(derEncoded: key.pkcs8DER() + [0]) }

        if curve.isEC {
            let sec1 = try key.sec1PEM()
            #expect(sec1.hasPrefix("-----BEGIN EC PRIVATE KEY-----"))
            #expect(try PrivateKey(pemEncoded: sec1).publicKey.uncompressedPoint == point)
            let body = sec1.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
            let sec1DER = [UInt8](Data(base64Encoded: body)!)
            #expect(try PrivateKey(derEncoded: sec1DER).publicKey.uncompressedPoint == point)
        } else {
            #expect(throws: CryptoError.self) { try key.sec1PEM() }
        }

        var scalar = try key.rawPrivateBytes()
        #expect(scalar.count == curve.coordinateByteCount)
        #expect(try PrivateKey(curve: curve, rawScalar: scalar).publicKey.uncompressedPoint == point)
        scalar.zeroize()
        #expect(!key.description.contains(hexString(try key.rawPrivateBytes())))
        #expect(key.description == "PrivateKey(\(curve.rawValue), redacted)")
    }

    @Test("Apple merchant key (SEC1 PEM) matches its certificate key")
    func merchantKey() throws {
        let key = try PrivateKey(pemEncoded: vectorText("apple/in-app-sample/merchant_encryption.key"))
        #expect(key.curve == .p256)
        #expect(key.publicKey.uncompressedPoint
            == hex(try vectorText("apple/in-app-sample/merchant_encryption_uncompressed_public_key.txt")))
    }

    @Test("Raw scalar range and length checks (P-256)")
    func scalarRange() throws {
        #expect(throws: CryptoError.self) { try PrivateKey(curve: .p256, rawScalar: [UInt8](repeating: 0, count: 32)) }
        #expect(throws: CryptoError.self) { try PrivateKey(curve: .p256, rawScalar: p256Order) }
        #expect(throws: CryptoError.self) { try PrivateKey(curve: .p256, rawScalar: [UInt8](repeating: 0xFF, count: 32)) }
        #expect(throws: CryptoError.self) { try PrivateKey(curve: .p256, rawScalar: [UInt8](repeating: 1, count: 31)) }
        #expect(throws: CryptoError.self) { try PrivateKey(curve: .x25519, rawScalar: [UInt8](repeating: 1, count: 31)) }
        var nMinus1 = p256Order
        nMinus1[31] -= 1
        _ = try PrivateKey(curve: .p256, rawScalar: nMinus1)
        // d = 1 gives the generator.
        let one = try PrivateKey(curve: .p256, rawScalar: [UInt8](repeating: 0, count: 31) + [1])
        #expect(one.publicKey.uncompressedPoint == hex("""
            046b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296\
            4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5
            """))
    }

    @Test("derived(fromSeed:) is deterministic and seed-dependent", arguments: Curve.allCases)
    func derived(curve: Curve) throws {
        let seed: [UInt8] = Array("test PKI root".utf8)
        let a = try PrivateKey.derived(fromSeed: seed, curve: curve)
        let b = try PrivateKey.derived(fromSeed: seed, curve: curve)
        let c = try PrivateKey.derived(fromSeed: seed + [1], curve: curve)
        #expect(a.curve == curve)
        #expect(a.publicKey == b.publicKey)
        #expect(try a.rawPrivateBytes() == b.rawPrivateBytes())
        #expect(a.publicKey != c.publicKey)
    }

    @Test("Malformed PEM/DER is rejected")
    func malformed() {
        #expect(throws: CryptoError.self) { try PrivateKey(pemEncoded: "not a key") }
        #expect(throws: CryptoError.self) { try PrivateKey(derEncoded: [0x30, 0x03, 0x02, 0x01, 0x00]) }
        #expect(throws: CryptoError.self) { try PrivateKey(derEncoded: []) }
    }
}

@Suite("Key agreement")
struct KeyAgreementTests {
    @Test("ECDH / X25519 agree both ways", arguments: [Curve.p256, .p384, .p521, .x25519])
    func agreement(curve: Curve) throws {
        let a = try PrivateKey.generate(curve)
        let b = try PrivateKey.generate(curve)
        let ab = try a.sharedSecret(with: b.publicKey)
        #expect(ab.count == curve.coordinateByteCount)
        #expect(ab == (try b.sharedSecret(with: a.publicKey)))
    }

    @Test("Curve mismatch and Ed25519 are rejected")
    func mismatch() throws {
        let p256 = try PrivateKey.generate(.p256)
        let p384 = try PrivateKey.generate(.p384)
        #expect(throws: CryptoError.self) { try p256.sharedSecret(with: p384.publicKey) }
        let ed = try PrivateKey.generate(.ed25519)
        #expect(throws: CryptoError.self) { try ed.sharedSecret(with: ed.publicKey) }
        let x = try PrivateKey.generate(.x25519)
        #expect(throws: CryptoError.self) { try x.sharedSecret(with: ed.publicKey) }
    }

    @Test("X25519 low-order public keys give an all-zero secret and are rejected", arguments: [
        "0000000000000000000000000000000000000000000000000000000000000000",
        "0100000000000000000000000000000000000000000000000000000000000000",
        "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
        "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157",
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    ])
    func lowOrder(point: String) throws {
        let key = try PrivateKey.generate(.x25519)
        let peer = try PublicKey(curve: .x25519, rawRepresentation: hex(point))
        #expect(throws: CryptoError.self) { try key.sharedSecret(with: peer) }
        do {
            _ = try key.sharedSecret(with: peer)
        } catch let error as CryptoError {
            #expect(error.kind == .invalidKey)
        }
    }

    @Test("RFC 7748 §6.1 X25519 known answer")
    func x25519KnownAnswer() throws {
        let alice = try PrivateKey(curve: .x25519, rawScalar: hex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"))
        let bob = try PrivateKey(curve: .x25519, rawScalar: hex("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb"))
        #expect(alice.publicKey.rawRepresentation == hex("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"))
        #expect(bob.publicKey.rawRepresentation == hex("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"))
        #expect(try alice.sharedSecret(with: bob.publicKey) == hex("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"))
    }
}

@Suite("Signatures")
struct SignatureTests {
    @Test("ECDSA sign/verify round trip", arguments: ecCurves, DigestAlgorithm.allCases)
    func ecdsa(curve: Curve, digest: DigestAlgorithm) throws {
        let key = try PrivateKey.generate(curve)
        let message: [UInt8] = Array("to be signed".utf8)
        let signature = try key.signature(for: message, digest: digest)
        #expect(signature.count == 2 * curve.coordinateByteCount)
        #expect(key.publicKey.isValidSignature(signature, for: message, digest: digest))
        var flipped = signature
        flipped[5] ^= 0x80
        #expect(!key.publicKey.isValidSignature(flipped, for: message, digest: digest))
        #expect(!key.publicKey.isValidSignature(signature, for: message + [0], digest: digest))
        #expect(!key.publicKey.isValidSignature(signature.dropLast(), for: message, digest: digest))
        #expect(!key.publicKey.isValidSignature(signature + [0], for: message, digest: digest))
        #expect(!key.publicKey.isValidSignature([UInt8](repeating: 0, count: signature.count), for: message, digest: digest))
        let other = DigestAlgorithm.allCases.first { $0 != digest }!
        #expect(!key.publicKey.isValidSignature(signature, for: message, digest: other))
        #expect(!(try PrivateKey.generate(curve)).publicKey.isValidSignature(signature, for: message, digest: digest))
    }

    @Test("Ed25519 sign/verify round trip")
    func ed25519() throws {
        let key = try PrivateKey.generate(.ed25519)
        let message: [UInt8] = Array("to be signed".utf8)
        let signature = try key.signature(for: message, digest: .sha256)
        #expect(signature.count == 64)
        #expect(key.publicKey.isValidSignature(signature, for: message, digest: .sha512))
        var flipped = signature
        flipped[0] ^= 1
        #expect(!key.publicKey.isValidSignature(flipped, for: message, digest: .sha256))
        #expect(!key.publicKey.isValidSignature(signature.dropLast(), for: message, digest: .sha256))
        #expect(throws: CryptoError.self) { try PrivateKey.generate(.x25519).signature(for: message, digest: .sha256) }
        #expect(!(try PrivateKey.generate(.x25519)).publicKey.isValidSignature(signature, for: message, digest: .sha256))
    }

    @Test("RFC 8032 §7.1 Ed25519 test 1")
    func ed25519KnownAnswer() throws {
        let key = try PrivateKey(curve: .ed25519, rawScalar: hex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"))
        #expect(key.publicKey.rawRepresentation == hex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"))
        let expected = hex("e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b")
        #expect(try key.signature(for: [UInt8](), digest: .sha256) == expected)
        #expect(key.publicKey.isValidSignature(expected, for: [UInt8](), digest: .sha256))
    }

    @Test("Apple sample issuer signature (ES256, raw r||s) verifies; a flipped bit fails")
    func appleIssuerSignature() throws {
        let text = try vectorText("apple/in-app-sample/issuer_signature_validation.txt")
        let data = try #require(hexField(text, label: "Data to Sign:"))
        let xy = try #require(hexField(text, label: "Public key:"))
        let signature = try #require(hexField(text, label: "Signature:"))
        #expect(Digest.hash(.sha256, data) == hexField(text, label: "Digest:"))
        try #require(xy.count == 64 && signature.count == 64)
        let key = try PublicKey(curve: .p256, x: Array(xy[..<32]), y: Array(xy[32...]))
        #expect(key.isValidSignature(signature, for: data, digest: .sha256))
        var flipped = signature
        flipped[40] ^= 0x04
        #expect(!key.isValidSignature(flipped, for: data, digest: .sha256))
        var flippedData = data
        flippedData[100] ^= 0x01
        #expect(!key.isValidSignature(signature, for: flippedData, digest: .sha256))
    }

    @Test("Apple sample device signature (ES256, COSE_Key) verifies; a flipped bit fails")
    func appleDeviceSignature() throws {
        let text = try vectorText("apple/in-app-sample/device_signature_validation.txt")
        let data = try #require(hexField(text, label: "Data to sign"))
        let signature = try #require(hexField(text, label: "signature"))
        #expect(Digest.hash(.sha256, data) == hexField(text, label: "digest"))
        let coseKey = hex(try vectorText("apple/in-app-sample/device_public_key.hex"))
        let xStart = try #require(indexAfter([0x21, 0x58, 0x20], in: coseKey))
        let yStart = try #require(indexAfter([0x22, 0x58, 0x20], in: coseKey))
        let key = try PublicKey(curve: .p256, x: Array(coseKey[xStart..<(xStart + 32)]),
                                y: Array(coseKey[yStart..<(yStart + 32)]))
        #expect(key.isValidSignature(signature, for: data, digest: .sha256))
        var flipped = signature
        flipped[63] ^= 0x01
        #expect(!key.isValidSignature(flipped, for: data, digest: .sha256))
        #expect(!key.isValidSignature(signature, for: data, digest: .sha384))
    }
}
