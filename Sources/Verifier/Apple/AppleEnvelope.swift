import CBOR
import MdocModel

/// Apple's `APPLE-HPKE-v1` envelope (`PKIdentityDocument.encryptedData`):
/// `{"algorithm": "APPLE-HPKE-v1", "params": {"mode": 0, "pkEm", "pkRHash", "infoHash"}, "data"}`.
struct AppleEnvelope {
    static let algorithmName = "APPLE-HPKE-v1"

    let algorithm: String
    /// Any integer parses (only 0 is supported, which the adapter checks); one beyond Int64 reads as Int64.max.
    let mode: Int64
    /// HPKE `enc`: the sender's ephemeral P-256 key, 65-byte uncompressed point.
    let pkEm: ArraySlice<UInt8>
    /// SHA-256 of the recipient's uncompressed public key.
    let pkRHash: ArraySlice<UInt8>
    /// SHA-256 of the session transcript the wallet used.
    let infoHash: ArraySlice<UInt8>
    /// AES-128-GCM ciphertext with its 16-byte tag.
    let data: ArraySlice<UInt8>

    /// Strict shape and length checks; keys may come in any order, unknown keys are ignored.
    init(_ item: CBORItem) throws(VerificationError) {
        func malformed(_ what: String) -> VerificationError { VerificationError(.inputMalformed, "envelope: \(what)") }
        guard item.isMap else { throw malformed("not a CBOR map") }
        guard let algorithm = item["algorithm"]?.text else { throw malformed("no text `algorithm`") }
        guard let params = item["params"], params.isMap else { throw malformed("no `params` map") }
        guard let data = item["data"]?.bytes else { throw malformed("no byte-string `data`") }
        guard let modeNode = params["mode"], modeNode.int != nil || modeNode.uint != nil else {
            throw malformed("no integer `params.mode`")
        }
        let mode = modeNode.int ?? Int64.max
        guard let pkEm = params["pkEm"]?.bytes else { throw malformed("no byte-string `params.pkEm`") }
        guard let pkRHash = params["pkRHash"]?.bytes else { throw malformed("no byte-string `params.pkRHash`") }
        guard let infoHash = params["infoHash"]?.bytes else { throw malformed("no byte-string `params.infoHash`") }
        guard pkRHash.count == 32 else { throw malformed("pkRHash is \(pkRHash.count) bytes, expected 32") }
        guard infoHash.count == 32 else { throw malformed("infoHash is \(infoHash.count) bytes, expected 32") }
        guard data.count >= 16 else { throw malformed("data is shorter than an AES-GCM tag") }
        self.algorithm = algorithm
        self.mode = mode
        self.pkEm = pkEm
        self.pkRHash = pkRHash
        self.infoHash = infoHash
        self.data = data
    }
}
