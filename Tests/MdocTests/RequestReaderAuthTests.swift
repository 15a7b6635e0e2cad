import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import Testing
import TestSupport
import Verifier

/// mdoc reader authentication: ISO/IEC 18013-5 Annex D (D.4.1.1) and ReaderAuth we sign ourselves.
@Suite("ReaderAuth signing and verification")
struct RequestReaderAuthTests {
    static func annexDTranscript() throws -> SessionTranscript { try SessionTranscript(encoded: AnnexDVector.sessionTranscriptBytes) }
    static var annexDItemsRequestBytes: [UInt8] { [0xd8, 0x18, 0x58, 0x93] + AnnexDVector.itemsRequest }

    static func code(_ body: () throws(VerificationError) -> Certificate) -> ErrorCode? {
        do {
            _ = try body()
            return nil
        } catch {
            return error.code
        }
    }

    @Test("Annex D: ReaderAuthenticationBytes equal the vector and the ReaderAuth verifies against the reader root")
    func annexD() throws {
        let bytes = ReaderAuthentication.bytes(transcript: try Self.annexDTranscript(), itemsRequestBytes: Self.annexDItemsRequestBytes)
        #expect(bytes == AnnexDVector.readerAuthenticationBytes)
        let leaf = try ReaderAuthentication.verify(AnnexDVector.readerAuth, readerAuthenticationBytes: bytes,
                                                   trustStore: TrustStore(anchors: [try AnnexDVector.readerRoot()]), at: AnnexDVector.validTime)
        #expect(leaf == (try AnnexDVector.readerCertificate()))
        #expect(leaf.subject.commonName == "reader")
    }

    @Test("Annex D ReaderAuth: a flipped signature byte or another transcript is reader_auth.signature_invalid")
    func annexDSignatureInvalid() throws {
        let store = TrustStore(anchors: [try AnnexDVector.readerRoot()])
        var tampered = AnnexDVector.readerAuth
        tampered[tampered.count - 1] ^= 0x01
        #expect(Self.code { () throws(VerificationError) in
            try ReaderAuthentication.verify(tampered, readerAuthenticationBytes: AnnexDVector.readerAuthenticationBytes, trustStore: store,
                                            at: AnnexDVector.validTime)
        } == .readerAuthSignatureInvalid)
        let other = ReaderAuthentication.bytes(transcript: .annexC(encryptionInfo: "x", origin: "https://a.example"),
                                               itemsRequestBytes: Self.annexDItemsRequestBytes)
        #expect(Self.code { () throws(VerificationError) in
            try ReaderAuthentication.verify(AnnexDVector.readerAuth, readerAuthenticationBytes: other, trustStore: store, at: AnnexDVector.validTime)
        } == .readerAuthSignatureInvalid)
    }

    @Test("Annex D ReaderAuth: another root, or after the reader certificate expired, is reader_auth.chain_untrusted")
    func annexDChainUntrusted() throws {
        let bytes = AnnexDVector.readerAuthenticationBytes
        let iacaStore = TrustStore(anchors: [try AnnexDVector.iaca()])
        let readerStore = TrustStore(anchors: [try AnnexDVector.readerRoot()])
        #expect(Self.code { () throws(VerificationError) in
            try ReaderAuthentication.verify(AnnexDVector.readerAuth, readerAuthenticationBytes: bytes,
                                            trustStore: iacaStore, at: AnnexDVector.validTime)
        } == .readerAuthChainUntrusted)
        #expect(Self.code { () throws(VerificationError) in
            try ReaderAuthentication.verify(AnnexDVector.readerAuth, readerAuthenticationBytes: bytes,
                                            trustStore: readerStore, at: VectorFiles.date("2024-06-01T00:00:00Z"))
        } == .readerAuthChainUntrusted)
        #expect(Self.code { () throws(VerificationError) in
            try ReaderAuthentication.verify([0x84, 0x40, 0xa0, 0xf6, 0x40], readerAuthenticationBytes: bytes,
                                            trustStore: TrustStore(anchors: []), at: AnnexDVector.validTime)
        } == .inputMalformed)
    }

    /// A reader root and a reader certificate (EKU 1.0.18013.5.1.6 unless `readerEKU` is false), valid 2025–2035.
    static func readerPKI(readerEKU: Bool = true) throws -> (root: Certificate, identity: ReaderIdentity) {
        let pki = try TestReaderPKI(readerEKU: readerEKU)
        return (pki.root, pki.identity)
    }

    static let inside = VectorFiles.date("2026-01-01T00:00:00Z")

    @Test("Our ReaderAuth (per document and readerAuthAll) has Annex D's shape and verifies; x5chain is one bstr")
    func signAndVerify() throws {
        let (root, identity) = try Self.readerPKI()
        let transcript = SessionTranscript.annexC(encryptionInfo: "abc", origin: "https://shop.example")
        let items = RequestEncodingTests.annexDItems.taggedBytes
        for toBeSigned in [
            ReaderAuthentication.bytes(transcript: transcript, itemsRequestBytes: items),
            ReaderAuthentication.allBytes(transcript: transcript, itemsRequestBytes: [items, items], deviceRequestInfoBytes: nil),
        ] {
            let readerAuth = try ReaderAuthentication.sign(toBeSigned, with: identity)
            // [h'a10126', {33: h'<DER>'}, null, h'<64 bytes>']
            let parts = try #require(try CBORDecoder.decode(readerAuth).array)
            let protected: [UInt8]? = parts[0].bytes.map(Array.init)
            let x5chain: [UInt8]? = parts[1][intKey: 33]?.bytes.map(Array.init)
            #expect(parts.count == 4)
            #expect(protected == [0xa1, 0x01, 0x26])
            #expect(x5chain == identity.certificates[0].derEncoded)
            #expect(parts[2].isNull)
            #expect(parts[3].bytes?.count == 64)
            let leaf = try ReaderAuthentication.verify(readerAuth, readerAuthenticationBytes: toBeSigned,
                                                       trustStore: TrustStore(anchors: [root]), at: Self.inside)
            #expect(leaf == identity.certificates[0])
        }
    }

    @Test("ReaderAuthenticationAll: [\"ReaderAuthenticationAll\", transcript, [ItemsRequestBytes…], null], tag 24, built by hand")
    func allBytesLayout() {
        let transcript = SessionTranscript.annexC(encryptionInfo: "abc", origin: "https://shop.example")
        let items: [UInt8] = [0xd8, 0x18, 0x41, 0xa0]
        let inner: [UInt8] = [0x84, 0x77] + Array("ReaderAuthenticationAll".utf8) + transcript.bytes + [0x82] + items + items + [0xf6]
        let expected: [UInt8] = [0xd8, 0x18, 0x58, UInt8(inner.count)] + inner
        #expect(ReaderAuthentication.allBytes(transcript: transcript, itemsRequestBytes: [items, items], deviceRequestInfoBytes: nil) == expected)
    }

    @Test("A reader certificate whose EKU lacks 1.0.18013.5.1.6 is reader_auth.chain_untrusted")
    func wrongEKU() throws {
        let (root, identity) = try Self.readerPKI(readerEKU: false)
        let toBeSigned = ReaderAuthentication.bytes(transcript: .annexC(encryptionInfo: "abc", origin: "https://shop.example"),
                                                    itemsRequestBytes: [0xd8, 0x18, 0x41, 0xa0])
        let readerAuth = try ReaderAuthentication.sign(toBeSigned, with: identity)
        #expect(Self.code { () throws(VerificationError) in
            try ReaderAuthentication.verify(readerAuth, readerAuthenticationBytes: toBeSigned, trustStore: TrustStore(anchors: [root]), at: Self.inside)
        } == .readerAuthChainUntrusted)
    }

    @Test("ReaderIdentity refuses a key that is not the certificate's, and an empty chain")
    func identityMismatch() throws {
        let (_, identity) = try Self.readerPKI()
        #expect(throws: VerificationError.self) { try ReaderIdentity(key: try PrivateKey.generate(.p256), certificates: identity.certificates) }
        #expect(throws: VerificationError.self) { try ReaderIdentity(key: identity.key, certificates: []) }
    }
}
