import CBOR
import CryptoCore
import Mdoc
import MdocModel
import Verifier

/// Where the response goes: the format and the relying party's out-of-band values.
///
/// Create one with the format's static function (`.appleApp(request)`, `.annexC(request)`,
/// `.annexCEncryptionInfo(text, origin:)`, `.openID4VP(request)`, `.deviceResponse(transcript)`); each format's wallet
/// side lives in its own file under `Formats/`.
public struct ResponseTarget: Sendable {
    /// The format's wallet side.
    package let wallet: any WalletSide

    package init(_ wallet: any WalletSide) { self.wallet = wallet }

    /// The response format for this target.
    public var format: ResponseFormat { wallet.format }

    /// The session transcript the device authenticates and the relying party verifies with.
    public var transcript: SessionTranscript { wallet.transcript }

    /// A transcript of the same kind for another session (for `deviceSignatureOtherTranscript`).
    var otherTranscript: SessionTranscript { wallet.otherTranscript }

    /// Where the wallet posts its answer itself (a format answered by reference: the request's `response_uri`); nil
    /// where the page posts it.
    package var responseURI: String? { wallet.responseURI }
}

/// One format's wallet: the transcripts it signs over and how its DeviceResponse travels to the relying party.
package protocol WalletSide: Sendable {
    /// The format this wallet answers in.
    var format: ResponseFormat { get }
    /// The session transcript the device authenticates and the relying party verifies with.
    var transcript: SessionTranscript { get }
    /// A transcript of the same kind for another session.
    var otherTranscript: SessionTranscript { get }
    /// The DeviceResponse as the relying party receives it — bytes, and the posted text for text formats — with the
    /// build's transport faults applied.
    func wrap(_ deviceResponse: [UInt8], faults: Set<Fault>, extraEntries: [(CBORValue, CBORValue)], pki: TestPKI) throws
        -> (bytes: [UInt8], text: String?)
    /// Where the wallet posts its answer itself; nil where the page posts it.
    var responseURI: String? { get }
    /// The wallet changed as the flow's attack `name` asks (a case's `Recipe.walletVariant`); nil for a name the
    /// format does not know.
    func variant(_ name: String) -> (any WalletSide)?
}

extension WalletSide {
    /// The page posts the answer, by default.
    package var responseURI: String? { nil }
    /// No variants, by default.
    package func variant(_ name: String) -> (any WalletSide)? { nil }

    /// The recipient key, or another one under the `encryptedToOtherKey` fault.
    func recipient(_ key: PublicKey, faults: Set<Fault>, pki: TestPKI) throws -> PublicKey {
        faults.contains(.encryptedToOtherKey) ? try pki.seed.key("other-recipient", curve: .p256).publicKey : key
    }
}
