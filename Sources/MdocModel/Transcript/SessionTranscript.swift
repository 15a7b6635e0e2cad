import CBOR
import CryptoCore

/// The session transcript that binds a response to one session (ISO/IEC 18013-5 §9.1.5.1).
///
/// `SessionTranscript = [DeviceEngagementBytes / null, EReaderKeyBytes / null, Handover]`.
/// Always built by the verifier from server-side values (or handed in by the caller), never taken from a response.
public struct SessionTranscript: Sendable, Equatable {
    /// The untagged CBOR array. HPKE `info` and `DeviceAuthentication` use these bytes.
    public let bytes: [UInt8]

    /// The transcript wrapped as `SessionTranscriptBytes = #6.24(bstr .cbor SessionTranscript)`; the deviceMac salt
    /// hashes these.
    public var taggedBytes: [UInt8] { CBOREncoder.encode(.tagged(24, .bytes(bytes))) }

    /// Creates a transcript from caller-supplied bytes: the untagged array, or the tag-24-wrapped
    /// `SessionTranscriptBytes`.
    ///
    /// The (untagged) bytes are kept exactly as given.
    ///
    /// - Throws: `input.malformed` when the bytes are not CBOR, a tag 24 does not wrap CBOR, or the transcript is
    ///   not a 3-element array.
    public init(encoded: [UInt8]) throws(VerificationError) {
        let item: CBORItem
        do {
            item = try CBORDecoder.decode(encoded)
        } catch {
            throw VerificationError(.inputMalformed, "session transcript is not CBOR: \(error)")
        }
        var array = item
        var exact = encoded
        if let (tag, _) = item.tag, tag == 24 {
            guard let embedded = try? item.decodeEmbedded() else {
                throw VerificationError(.inputMalformed, "tag-24 session transcript does not wrap CBOR")
            }
            array = embedded.item
            exact = Array(embedded.inner)
        }
        guard let parts = array.array, parts.count == 3 else {
            throw VerificationError(.inputMalformed, "session transcript is not a 3-element array")
        }
        self.bytes = exact
    }

    /// Creates a transcript built in code (not received) by encoding `value` in preferred serialization.
    public init(built value: CBORValue) {
        self.bytes = CBOREncoder.encode(value)
    }

    /// SHA-256 of the preferred CBOR encoding of `value`: the "…InfoHash" every online handover carries.
    package static func hash(_ value: CBORValue) -> [UInt8] {
        Digest.hash(.sha256, CBOREncoder.encode(value))
    }

    /// `#6.24(bstr .cbor X)` around caller-supplied CBOR bytes, kept exactly as given. The bytes must be one
    /// well-formed CBOR map (DeviceEngagement, COSE_Key); anything else is `input.malformed`.
    package static func embeddedMap(_ bytes: [UInt8], what: String) throws(VerificationError) -> CBORValue {
        guard let item = try? CBORDecoder.decode(bytes), item.isMap else {
            throw VerificationError(.inputMalformed, "\(what) is not one well-formed CBOR map")
        }
        return .tagged(24, .bytes(bytes))
    }
}
