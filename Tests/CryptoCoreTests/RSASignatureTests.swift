import CryptoCore
import Foundation
import Testing

/// RSA verification with a certificate's key (what the EU's LoTE signers use): vectors made with the OpenSSL command line
/// (`openssl dgst -sha256 -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:digest -sign`, and PKCS #1 v1.5 SHA-384).
@Suite("RSA signatures (PKCS #1 v1.5 and PSS)")
struct RSASignatureTests {
    static let certificate = """
-----BEGIN CERTIFICATE-----
MIIDDzCCAfegAwIBAgIUB1qDPoxrJT3bLHO6fzV3WHPpGdEwDQYJKoZIhvcNAQEL
BQAwFzEVMBMGA1UEAwwMUlNBIFBTUyB0ZXN0MB4XDTI2MTEyNjAyMTEwOFoXDTM2
MTEyMzAyMTEwOFowFzEVMBMGA1UEAwwMUlNBIFBTUyB0ZXN0MIIBIjANBgkqhkiG
9w0BAQEFAAOCAQ8AMIIBCgKCAQEAuBEiu/KLCOR9LxlJR8NeB7zSSBtjzeOIHVDv
JE3rOoT73wp+Yo8uA4JdzbA49h4CKwfYAbzKkP16pZSXFTuy5f8z79xI7C51L44h
5AGowvH9b5fxrKes3QOwtovWZLaVVFHXJtaWUGXIPODVCS7X/LubN1nf9fOKmmPS
mr5rUCgdTcir2xxDvSqRHJMVbQ9NOTZC6pFBXO57MmZD8q3DLi5kXXsFZZjct6wh
NCnXRAzdFbTJvprnJyNHscSKTcbWGJs8dGGnaVbIk8oYdmGnlk+C7EGCGdweIOvv
JkzC3CF6PUEb6+nZKQOVkx1ETQt0+KUdT4J92VXIR+tX0JzNkwIDAQABo1MwUTAd
BgNVHQ4EFgQUFPeg5BuffZfusoOODj3wo0hrNUYwHwYDVR0jBBgwFoAUFPeg5Buf
fZfusoOODj3wo0hrNUYwDwYDVR0TAQH/BAUwAwEB/zANBgkqhkiG9w0BAQsFAAOC
AQEALAZZusF7Y8PWREbpx9CaBl3Lb6OwRHiDdDfA0uFqdfD0IF1eKHKYHbzcBIpx
pH1PfrjF+PknaQuH0zmbAiUbLBTAvk9yYcrWUANG12h8k9pPsOf1YpUpNM/SmjbA
bNJXJIdBaZtn94WvRCx93FTEioXlrCkHTHIaFblqa9xyN5ZuGci39PaKmCq2/+VD
/0VzBVIeTYgmsIn6QR/HSUV8WRLb7CiVPxZAOHotE3vhUPqrTwg29jeLXmLTEARE
ifcBZlyPJzb9OumDzdKp2hKMZ9oRDA4ZYDD8PJmdi3bnCtZKBKdkBg0VcHuEh6jm
htkiIE6xcM9F+P+7N1WaaEsVfg==
-----END CERTIFICATE-----
"""
    /// A 1024-bit key: under the minimum, refused whatever it signed.
    static let smallCertificate = """
-----BEGIN CERTIFICATE-----
MIICAjCCAWugAwIBAgIUa1aid0ETtvVFNOrS/3rKu1ZvicYwDQYJKoZIhvcNAQEL
BQAwEzERMA8GA1UEAwwIUlNBIDEwMjQwHhcNMjYxMTI2MDIxMTA4WhcNMzYxMTIz
MDIxMTA4WjATMREwDwYDVQQDDAhSU0EgMTAyNDCBnzANBgkqhkiG9w0BAQEFAAOB
jQAwgYkCgYEA13auMvwlGry+OrxmxGoNdaDfEeNE9Wehqxlkw8sQFEmf+CXdA1GN
UeOI6XGErTyGi/SqUTUw0gWp4I3sKU4bBXHig52z1X4vBwUcbSn2GSyyBTCGYyP9
9R1+EFQdSBenrrtZZ6rl5ONs76ogLhINkjrFkSQAjEwmIu1WgiEJjNECAwEAAaNT
MFEwHQYDVR0OBBYEFAqCxKu98hLk/NjjPQmVlh12RmiBMB8GA1UdIwQYMBaAFAqC
xKu98hLk/NjjPQmVlh12RmiBMA8GA1UdEwEB/wQFMAMBAf8wDQYJKoZIhvcNAQEL
BQADgYEANDiA6qjQ0eUs2AsWiu6XO/6EpXSWZwuUcrqogb7mbgNYoiVGOacyWGPD
NIIzFu9FZc1jyflP0AynE3qW/CuKsd/W3MuAcfdihW+tufk8ROQTRlmFZrOJP7nQ
Uu5iw4ZVUZxwl8oB9YY8O46p85pAZ60omE5wFPmOjcosKlR8LCM=
-----END CERTIFICATE-----
"""
    static let message = Array("lote signing input".utf8)
    static let pss = Array(Data(base64Encoded:
            "loWzHpAPW5TxJ/VJ3utyFaYtgh/ravICz4j1VHHbuywrqoshYWmHo4CnitvHYZHzrrOvL3JIJqY17FKf90m6PqsfoRmDi3XapZTc" + 
            "oT5i8mmyl4u1sNgWXZbvbi3X3cF3ITx/i44NBEnnpTUchkKU/0Q6lCc4T6p+3Vl+h2yyUQ8xhUF++D8ovWSVaFYMrgLKArYtx0fy" + 
            "boW2NJgyIKPVNOb7hhieGnc3ZVOYjdaHQcJA3yNBb2ifTfpQC/H5ueANo4xGBCMuLttdb+cAPO2URu03ZT1IYBVHMlCp+C3wLUf/" + 
            "OgaQehQsfmIr7kzm30C3XAUslvMmlAUhDV/LK7tB3g==") ?? Data())
    static let pkcs1 = Array(Data(base64Encoded:
            "mMqS1vVcuvMFZALzTpbrodRLRea+rCQZo506gxl2Fs059tVHRSDv8cJ4GSXnTulmyR951qTd/iGksykN60RoNBzCCDJZuBK6xig2" + 
            "w9/0+iHDjxjVY5V7lQs4gHeI6t7n6Dt59EK+i571o8ZPfYweM/qwVnznYtBpJi5CD+zApgnAQr+CGKH9d6uR/1+6401N93/XxZh4" + 
            "Q5+XKWx/AYu5V9/aG3OsZHMzQ/wXOqcfimRND5wGF7cAW5Mf8v8mAJNZ9T210VU7hZWf/ckNg56K19Xw61bY8Mr2ozATUBf+vNp4" + 
            "Ir0XBzXjCPhA0ItUhkJ85lSyuW+i/SGojBxSjOxujQ==") ?? Data())
    static let small = Array(Data(base64Encoded:
            "NGxcjWnwXRGPg5vh7twPbhY+NJC8uk1zCPYeXJpBvbVoxUNlN3Dwk33ib6kVxrLYaq27VWZqB5g/ccxllGLWXx0LvU4ICejuyuF9" + 
            "+8z4C6IgyNlv0uazJ7/AvjH1fe9DcdiabM7BB0GY9FFIh1BcBxLdD0wmRSIZAGz1cPOVkww=") ?? Data())

    @Test("PSS SHA-256 and PKCS #1 v1.5 SHA-384 verify; another padding, digest, message or a flipped byte do not")
    func verifies() throws {
        let certificate = try #require(try Certificate.certificates(fromPEM: Self.certificate).first)
        #expect(RSASignature.modulusBits(of: certificate) == 2048)
        #expect(RSASignature.isValid(Self.pss, for: Self.message, certificate: certificate, digest: .sha256, padding: .pss))
        #expect(RSASignature.isValid(Self.pkcs1, for: Self.message, certificate: certificate, digest: .sha384, padding: .pkcs1v15))
        #expect(!RSASignature.isValid(Self.pss, for: Self.message, certificate: certificate, digest: .sha256, padding: .pkcs1v15))
        #expect(!RSASignature.isValid(Self.pkcs1, for: Self.message, certificate: certificate, digest: .sha384, padding: .pss))
        #expect(!RSASignature.isValid(Self.pkcs1, for: Self.message, certificate: certificate, digest: .sha512, padding: .pkcs1v15))
        #expect(!RSASignature.isValid(Self.pss, for: Self.message + [0], certificate: certificate, digest: .sha256, padding: .pss))
        var flipped = Self.pkcs1
        flipped[10] ^= 1
        #expect(!RSASignature.isValid(flipped, for: Self.message, certificate: certificate, digest: .sha384, padding: .pkcs1v15))
        #expect(!RSASignature.isValid([], for: Self.message, certificate: certificate, digest: .sha384, padding: .pkcs1v15))
    }

    @Test("a key under 2048 bits, or a key that is not RSA, verifies nothing")
    func refusesOtherKeys() throws {
        let small = try #require(try Certificate.certificates(fromPEM: Self.smallCertificate).first)
        #expect(RSASignature.modulusBits(of: small) == 1024)
        #expect(!RSASignature.isValid(Self.small, for: Self.message, certificate: small, digest: .sha256, padding: .pkcs1v15))
        let ec = try X509TestPKI.root().certificate
        #expect(RSASignature.modulusBits(of: ec) == nil)
        #expect(!RSASignature.isValid(Self.pkcs1, for: Self.message, certificate: ec, digest: .sha384, padding: .pkcs1v15))
    }
}
