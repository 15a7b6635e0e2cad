import TestSupport
import CryptoCore
import Foundation
import Testing

@Suite struct X509ParsingErrorTests {
    static let rsaPEM = """
        -----BEGIN CERTIFICATE-----
        MIICBDCCAW2gAwIBAgIUdQULyW0w6wCCY7BAfQu2XqfzfsIwDQYJKoZIhvcNAQEL
        BQAwEzERMA8GA1UEAwwIUlNBIHRlc3QwIBcNMjYxMTIyMDMxMjAxWhgPMjEyNjEw
        MjkwMzEyMDFaMBMxETAPBgNVBAMMCFJTQSB0ZXN0MIGfMA0GCSqGSIb3DQEBAQUA
        A4GNADCBiQKBgQC68xIrwwc/N5zPQo3CXRQcLpP62d2mZhTz/w5l8oTx2DgzYhIc
        Q0CJ9sHezMx17nYcmkO3lxw0agqKd1m4ihRxqnl6re6DSp8Fkscg3uh1SgL+TYiO
        UaHSd+pQIIluySNS0OUySylTiHqQUO4s8YFwYdJtmAXzl2MTrYlM9UxU7QIDAQAB
        o1MwUTAdBgNVHQ4EFgQUeQFS67apgIP+/P6iLBtbYkalWkQwHwYDVR0jBBgwFoAU
        eQFS67apgIP+/P6iLBtbYkalWkQwDwYDVR0TAQH/BAUwAwEB/zANBgkqhkiG9w0B
        AQsFAAOBgQCOxP4j5Ccv+cw77XmCZvfKyPd3XxiUpgQSfRvKV35JYdBl8GPpfXQr
        0ge/YqQKm0VsP+aur3EGC8+3SJv32C8Sd+u/JBjOzoGMWB1QECuHHtUF4b4p7zy9
        Xr021ZuTZA7BGGu/FnMtSZhDMcl4VVBWsWz/64n/eJtXi6/+ttS/QQ==
        -----END CERTIFICATE-----
        """

    static let brainpoolPEM = """
        -----BEGIN CERTIFICATE-----
        MIIBijCCATCgAwIBAgIUc/2H8x7QOlfcV+5ljFMFserwnNkwCgYIKoZIzj0EAwIw
        GTEXMBUGA1UEAwwOQnJhaW5wb29sIHRlc3QwIBcNMjYxMTIyMDMxMjAxWhgPMjEy
        NjEwMjkwMzEyMDFaMBkxFzAVBgNVBAMMDkJyYWlucG9vbCB0ZXN0MFowFAYHKoZI
        zj0CAQYJKyQDAwIIAQEHA0IABAe/LNZkQZp8k19j1JFydhZepXQYqbZxt2ESSpQ9
        1G6yhfThIOdJhOvuNUuZmh/C191Sb++3x7itgFIc+dhE3D+jUzBRMB0GA1UdDgQW
        BBQ7sQF7b0UtT3T2oDQdhRinQaGxGTAfBgNVHSMEGDAWgBQ7sQF7b0UtT3T2oDQd
        hRinQaGxGTAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0gAMEUCIAquZP6B
        +JsUsW4LUBbWs1TBlMdA8amSDF2tkiGhlBTPAiEAkHaLYKKJ9/0kTMkaPuEtdkl6
        hiJe6+a2OtYSZuzfFvw=
        -----END CERTIFICATE-----
        """

    static func expectInvalidInput(_ body: () throws -> Certificate, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            let certificate = try body()
            Issue.record("expected CryptoError(.invalidInput), parsed \(certificate)", sourceLocation: sourceLocation)
        } catch let error as CryptoError {
            #expect(error.kind == .invalidInput, "\(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func malformedDER() throws {
        let good = try X509Fixtures.annexD("ds_cert").derEncoded
        Self.expectInvalidInput { try Certificate(derEncoded: []) }
        Self.expectInvalidInput { try Certificate(derEncoded: [0x30]) }
        Self.expectInvalidInput { try Certificate(derEncoded: [0x30, 0x03, 0x02, 0x01, 0x01]) }
        Self.expectInvalidInput { try Certificate(derEncoded: Array("hello, world".utf8)) }
        Self.expectInvalidInput { try Certificate(derEncoded: Array(good.dropLast())) }
        Self.expectInvalidInput { try Certificate(derEncoded: good + [0x00]) }
        Self.expectInvalidInput { try Certificate(derEncoded: good + good) }
        Self.expectInvalidInput { try Certificate(derEncoded: [0x30, 0x84, 0xff, 0xff, 0xff, 0xff] + good) }
        var generator = SystemRandomNumberGenerator()
        for length in [1, 2, 16, 300, 4096] {
            let noise = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            Self.expectInvalidInput { try Certificate(derEncoded: noise) }
            Self.expectInvalidInput { try Certificate(derEncoded: [0x30, 0x82, UInt8(length >> 8), UInt8(length & 0xff)] + noise) }
        }
        // Every truncation of a real certificate fails cleanly.
        for cut in stride(from: 0, to: good.count, by: 7) {
            Self.expectInvalidInput { try Certificate(derEncoded: Array(good.prefix(cut))) }
        }
        // A slice parses like an array.
        let padded = [0xff] + good + [0xff]
        #expect(try Certificate(derEncoded: padded[1..<(padded.count - 1)]).derEncoded == good)
    }

    @Test func malformedPEM() throws {
        Self.expectInvalidInput { try Certificate(pemEncoded: "") }
        Self.expectInvalidInput { try Certificate(pemEncoded: "no PEM here") }
        Self.expectInvalidInput { try Certificate(pemEncoded: "-----BEGIN CERTIFICATE-----\n@@@@\n-----END CERTIFICATE-----\n") }
        Self.expectInvalidInput { try Certificate(pemEncoded: "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n") }
        Self.expectInvalidInput { try Certificate(pemEncoded: "-----BEGIN CERTIFICATE-----\nMIIBijCCATCgAwIBAgIU\n") }
        let key = try X509Fixtures.text("TestVectors/apple/in-app-sample/merchant_encryption.key")
        Self.expectInvalidInput { try Certificate(pemEncoded: key) }
        #expect(throws: CryptoError.self) { try Certificate.certificates(fromPEM: key) }
        #expect(throws: CryptoError.self) { try Certificate.certificates(fromPEM: "") }
    }

    @Test func pemBundle() throws {
        let ds = try X509Fixtures.text("TestVectors/apple/in-app-sample/issuer_signing.crt")
        let root = try X509Fixtures.text("TestVectors/apple/in-app-sample/issuer_root.crt")
        let key = try X509Fixtures.text("TestVectors/apple/in-app-sample/merchant_encryption.key")
        let bundle = try Certificate.certificates(fromPEM: "leading text\n" + ds + "\n" + key + "\n" + root)
        #expect(bundle == [try X509Fixtures.appleDS(), try X509Fixtures.appleRoot()])
        #expect(try Certificate(pemEncoded: key + "\n" + root) == X509Fixtures.appleRoot())
        // The PEM body is the exact DER.
        #expect(try Certificate(pemEncoded: root).sha256Fingerprint == Certificate.sha256Fingerprint(of: X509Fixtures.appleRoot().derEncoded))
        // `openssl x509 -fingerprint -sha256`
        #expect(X509Fixtures.hex(try X509Fixtures.appleRoot().sha256Fingerprint)
                == "81ec73ca680daf9c22c80ade687ab9688bfec0d65471f6105e8c917d987fca52")
    }

    @Test func brainpoolKeysAreSupported() throws {
        let certificate = try Certificate(pemEncoded: Self.brainpoolPEM)
        #expect(try certificate.publicKey().curve == .brainpoolP256r1)
        #expect(certificate.isSelfSigned)
    }

    @Test func unsupportedKeyTypes() throws {
        for pem in [Self.rsaPEM] {
            let certificate = try Certificate(pemEncoded: pem)
            #expect(throws: CryptoError.self) { try certificate.publicKey() }
            do {
                _ = try certificate.publicKey()
            } catch let error as CryptoError {
                #expect(error.kind == .unsupportedAlgorithm)
            }
            #expect(certificate.isSelfSigned)  // OpenSSL still verifies the signature itself
        }
        #expect(try Certificate(pemEncoded: Self.rsaPEM).publicKeyAlgorithmOID == "1.2.840.113549.1.1.1")
        #expect(try Certificate(pemEncoded: Self.rsaPEM).signatureAlgorithmOID == "1.2.840.113549.1.1.11")
    }

    @Test func loadDirectoryAndFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("x509-load-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let appleRoot = try X509Fixtures.text("TestVectors/apple/in-app-sample/issuer_root.crt")
        let appleDS = try X509Fixtures.text("TestVectors/apple/in-app-sample/issuer_signing.crt")
        let iaca = try X509Fixtures.annexD("iaca_cert")
        let readerRoot = try X509Fixtures.annexD("reader_root_cert")
        try (appleRoot + appleDS).write(to: directory.appendingPathComponent("b-apple.pem"), atomically: true, encoding: .utf8)
        try Data(iaca.derEncoded).write(to: directory.appendingPathComponent("a-utopia.der"))
        try Data(readerRoot.derEncoded).write(to: directory.appendingPathComponent("c-reader.CER"))
        try "ignored".write(to: directory.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("sub.pem"), withIntermediateDirectories: true)

        let store = try TrustStore.load(paths: [directory.path])
        #expect(store.anchors == [iaca, try X509Fixtures.appleRoot(), try X509Fixtures.appleDS(), readerRoot])
        X509Fixtures.expectTrusted(store.validate(leaf: try X509Fixtures.annexD("ds_cert"), at: X509Fixtures.date("2021-01-01T00:00:00Z")))

        // A single file, the same file twice (duplicates dropped), and a directory path with a trailing slash.
        let single = try TrustStore.load(paths: [X509Fixtures.path("TestVectors/apple/in-app-sample/issuer_root.crt"),
                                                  X509Fixtures.path("TestVectors/apple/in-app-sample/issuer_root.crt")])
        #expect(single.anchors == [try X509Fixtures.appleRoot()])
        #expect(try TrustStore.load(paths: [directory.path + "/"]).anchors.count == 4)
        #expect(try TrustStore.load(paths: []).isEmpty)

        let missing = directory.appendingPathComponent("missing.pem").path
        do {
            _ = try TrustStore.load(paths: [missing])
            Issue.record("loading a missing path succeeded")
        } catch let error as CryptoError {
            #expect(error.kind == .invalidInput)
            #expect(error.message.contains(missing))
        }

        try "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"
            .write(to: directory.appendingPathComponent("d-broken.pem"), atomically: true, encoding: .utf8)
        do {
            _ = try TrustStore.load(paths: [directory.path])
            Issue.record("loading a broken file succeeded")
        } catch let error as CryptoError {
            #expect(error.message.contains("d-broken.pem"))
        }
    }
}
