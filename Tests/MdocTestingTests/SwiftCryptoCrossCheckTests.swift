import CBOR
import Crypto
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import Testing
import Verifier

/// swift-crypto (BoringSSL) as an independent implementation: it opens what the kit seals and verifies what it
/// signs or MACs, so a misunderstanding shared by our simulator and our verifier cannot pass silently.
@Suite("MdocTesting: cross-check with swift-crypto")
struct SwiftCryptoCrossCheckTests {
    static let suite = Crypto.HPKE.Ciphersuite(kem: .P256_HKDF_SHA256, kdf: .HKDF_SHA256, aead: .AES_GCM_128)

    static func swiftCryptoKey(_ key: CryptoCore.PrivateKey) throws -> P256.KeyAgreement.PrivateKey {
        try P256.KeyAgreement.PrivateKey(pemRepresentation: key.pkcs8PEM())
    }

    @Test("swift-crypto's HPKE opens the Apple envelope to {\"identity\": DeviceResponse}; pkRHash and infoHash agree")
    func appleEnvelope() throws {
        let (request, merchantKey) = try Fixtures.appleRequest()
        let response = try MdocSimulator(seed: 1, at: Fixtures.time).simulate(.appleApp(request), options: Fixtures.options())
        let envelope = try CBORDecoder.decode(response.bytes)
        let params = try #require(envelope["params"])
        let key = try Self.swiftCryptoKey(merchantKey)
        #expect(Array(SHA256.hash(data: key.publicKey.x963Representation)) == params["pkRHash"]?.bytes.map(Array.init))
        #expect(Array(SHA256.hash(data: request.transcript.bytes)) == params["infoHash"]?.bytes.map(Array.init))
        var recipient = try Crypto.HPKE.Recipient(privateKey: key, ciphersuite: Self.suite, info: Data(request.transcript.bytes),
                                                  encapsulatedKey: Data(try #require(params["pkEm"]?.bytes)))
        let plaintext = try recipient.open(Data(try #require(envelope["data"]?.bytes)), authenticating: Data())
        let topics = try CBORDecoder.decode(Array(plaintext))
        #expect(topics["identity"]?.raw.elementsEqual(response.deviceResponse) == true)
    }

    @Test("swift-crypto's HPKE opens the Annex C response with the Annex C transcript as info")
    func annexC() throws {
        let request = try AnnexCRequest(seed: 4, origin: "https://shop.example")
        let response = try MdocSimulator(seed: 1, at: Fixtures.time).simulate(.annexC(request), options: Fixtures.options())
        let text = try #require(response.annexCResponse)
        let outer = try CBORDecoder.decode(try #require(Base64URL.decode(text)))
        let data = try #require(outer.array?.last)
        var recipient = try Crypto.HPKE.Recipient(privateKey: try Self.swiftCryptoKey(request.recipientKey), ciphersuite: Self.suite,
                                                  info: Data(request.transcript.bytes), encapsulatedKey: Data(try #require(data["enc"]?.bytes)))
        let plaintext = try recipient.open(Data(try #require(data["cipherText"]?.bytes)), authenticating: Data())
        #expect(Array(plaintext) == response.deviceResponse)
    }

    @Test("an envelope sealed by swift-crypto verifies with our verifier (the HPKE parameters agree both ways)")
    func sealedBySwiftCrypto() throws {
        let (request, merchantKey) = try Fixtures.appleRequest()
        let pki = try TestPKI(seed: 1, at: Fixtures.time)
        let response = try MdocSimulator(pki: pki).simulate(.appleApp(request), options: Fixtures.options())
        let recipientKey = try Self.swiftCryptoKey(merchantKey).publicKey
        var sender = try Crypto.HPKE.Sender(recipientKey: recipientKey, ciphersuite: Self.suite, info: Data(request.transcript.bytes))
        let plaintext = CBOREncoder.encode(.map([(.text("identity"), .encoded(response.deviceResponse))]))
        let ciphertext = try sender.seal(Data(plaintext), authenticating: Data())
        let envelope = CBOREncoder.encode(.map([
            (.text("algorithm"), .text("APPLE-HPKE-v1")),
            (.text("params"), .map([
                (.text("mode"), .unsigned(0)),
                (.text("pkEm"), .bytes(Array(sender.encapsulatedKey))),
                (.text("pkRHash"), .bytes(Array(SHA256.hash(data: recipientKey.x963Representation)))),
                (.text("infoHash"), .bytes(Array(SHA256.hash(data: request.transcript.bytes)))),
            ])),
            (.text("data"), .bytes(Array(ciphertext))),
        ]))
        let verifier = try AppleAppVerifier(configuration: VerifierConfiguration(trustStore: pki.trustStore), keys: [merchantKey])
        let report = verifier.verify(encryptedData: envelope, session: AppleAppSession(nonce: request.nonce, merchantID: request.merchantID,
                                                                                        teamID: request.teamID), at: Fixtures.time)
        #expect(expectation(report, .verified) == nil, "\(expectation(report, .verified) ?? "")")
    }

    @Test("swift-crypto verifies the issuerAuth ECDSA signature (P-256 and P-384) over our Sig_structure",
          arguments: [CryptoCore.Curve.p256, .p384])
    func issuerSignature(_ curve: CryptoCore.Curve) throws {
        let (request, _) = try Fixtures.appleRequest()
        let pki = try TestPKI(seed: 1, curve: curve, at: Fixtures.time)
        let response = try MdocSimulator(pki: pki).simulate(.appleApp(request), options: Fixtures.options())
        let document = try #require(CBORDecoder.decode(response.deviceResponse)["documents"]?.array?.first)
        let sign1 = try #require(document["issuerSigned"]?["issuerAuth"]?.array)
        let protected = try #require(sign1[0].bytes)
        let payload = try #require(sign1[2].bytes)
        let signature = Data(try #require(sign1[3].bytes))
        let toBeSigned = Data(CBOREncoder.encode(.array([.text("Signature1"), .bytes(Array(protected)), .bytes([]), .bytes(Array(payload))])))
        let point = Data(try pki.documentSigner.publicKey().uncompressedPoint)
        switch curve {
        case .p256:
            let key = try P256.Signing.PublicKey(x963Representation: point)
            #expect(key.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: signature), for: toBeSigned))
        default:
            let key = try P384.Signing.PublicKey(x963Representation: point)
            #expect(key.isValidSignature(try P384.Signing.ECDSASignature(rawRepresentation: signature), for: toBeSigned))
        }
    }

    @Test("swift-crypto recomputes the deviceMac tag: ECDH, HKDF EMacKey with the tagged-transcript salt, HMAC over MAC0")
    func deviceMac() throws {
        let transcript = SessionTranscript(built: .array([.null, .null, .text("cross-check")]))
        let options = Fixtures.options { $0.deviceAuthentication = .mac }
        let response = try MdocSimulator(seed: 1, at: Fixtures.time).simulate(.deviceResponse(transcript), options: options)
        let readerKey = try Self.swiftCryptoKey(try #require(response.readerKey))
        let document = try #require(CBORDecoder.decode(response.deviceResponse)["documents"]?.array?.first)
        let deviceKey = try #require(Fixtures.mso(ofDeviceResponse: response.deviceResponse)["deviceKeyInfo"]?["deviceKey"])
        let point = [0x04] + Array(try #require(deviceKey[intKey: -2]?.bytes)) + Array(try #require(deviceKey[intKey: -3]?.bytes))
        let shared = try readerKey.sharedSecretFromKeyAgreement(with: P256.KeyAgreement.PublicKey(x963Representation: point))
        let macKey = shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: Data(SHA256.hash(data: transcript.taggedBytes)),
                                                    sharedInfo: Data("EMacKey".utf8), outputByteCount: 32)
        let deviceSigned = try #require(document["deviceSigned"])
        let nameSpaces = try #require(deviceSigned["nameSpaces"])
        let mac0 = try #require(deviceSigned["deviceAuth"]?["deviceMac"]?.array)
        let deviceAuthentication = CBOREncoder.encode(.array([
            .text("DeviceAuthentication"), .encoded(transcript.bytes), .text(DocType.mDL), .encoded(Array(nameSpaces.raw)),
        ]))
        let toBeMaced = CBOREncoder.encode(.array([
            .text("MAC0"), .bytes(Array(try #require(mac0[0].bytes))), .bytes([]),
            .bytes(CBOREncoder.encode(.tagged(24, .bytes(deviceAuthentication)))),
        ]))
        let tag = Crypto.HMAC<SHA256>.authenticationCode(for: Data(toBeMaced), using: macKey)
        #expect(Array(tag) == mac0[3].bytes.map(Array.init))
        #expect(mac0[2].isNull)
    }
}
