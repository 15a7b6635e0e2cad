import Mdoc
import MdocModel
import Testing

/// COSE algorithm identifiers as the IANA COSE Algorithms registry assigns them (RFC 9053; RFC 9864 §2.1 and §2.2
/// for the fully specified ones). An identifier read from a signature must never be taken for another algorithm.
@Suite("COSE algorithm identifiers")
struct COSEAlgorithmTests {
    @Test("each algorithm has its registered identifier", arguments: [
        (Int64(-7), COSEAlgorithm.es256), (-35, .es384), (-36, .es512), (-8, .edDSA),
        (-9, .esp256), (-51, .esp384), (-52, .esp512), (-19, .ed25519), (5, .hmac256),
    ])
    func registered(identifier: Int64, algorithm: COSEAlgorithm) {
        #expect(COSEAlgorithm(rawValue: identifier) == algorithm)
        #expect(algorithm.rawValue == identifier)
    }

    /// -48, -49 and -50 were ESP384, ESP512 and Ed25519 in early drafts of RFC 9864; the registry gives them to
    /// ML-DSA-44, ML-DSA-65 and ML-DSA-87, which this verifier does not support. -53 is Ed448.
    @Test("identifiers of algorithms the verifier does not support are unknown", arguments: [Int64(-48), -49, -50, -53, -47, -37])
    func unsupported(identifier: Int64) {
        #expect(COSEAlgorithm(rawValue: identifier) == nil)
    }
}
