/// The single-step key derivation function of NIST SP 800-56A §5.8.2.1 with SHA-256, as JWE's ECDH-ES uses it (RFC 7518
/// §4.6.2).
///
/// The output is `SHA-256(u32be(counter) || Z || OtherInfo)` for counter 1, 2, … until `keyByteCount` bytes, with
/// `OtherInfo = u32be(len(alg)) || alg || u32be(len(apu)) || apu || u32be(len(apv)) || apv || u32be(keyBits)`.
/// Checked against RFC 7518 Appendix C.
public enum ConcatKDF {
    /// Derives `keyByteCount` bytes of key material from an ECDH shared secret `Z`.
    ///
    /// - Parameters:
    ///   - sharedSecret: The ECDH shared secret `Z`.
    ///   - keyByteCount: The number of bytes to produce; `keydatalen` in `OtherInfo` is this times 8.
    ///   - algorithmID: The `AlgorithmID` string (JWE: the `enc` value for direct key agreement, else the `alg` value).
    ///   - partyUInfo: The `PartyUInfo` bytes (JWE `apu`, decoded).
    ///   - partyVInfo: The `PartyVInfo` bytes (JWE `apv`, decoded).
    /// - Returns: The first `keyByteCount` bytes of the concatenated hash outputs.
    public static func derive(sharedSecret: [UInt8], keyByteCount: Int, algorithmID: String, partyUInfo: [UInt8],
                              partyVInfo: [UInt8]) -> [UInt8] {
        var otherInfo = lengthPrefixed(Array(algorithmID.utf8))
        otherInfo += lengthPrefixed(partyUInfo)
        otherInfo += lengthPrefixed(partyVInfo)
        otherInfo += bigEndian(UInt32(keyByteCount * 8))
        var output: [UInt8] = []
        var counter: UInt32 = 1
        while output.count < keyByteCount {
            output += Digest.hash(.sha256, bigEndian(counter) + sharedSecret + otherInfo)
            counter += 1
        }
        return Array(output.prefix(keyByteCount))
    }

    private static func lengthPrefixed(_ bytes: [UInt8]) -> [UInt8] { bigEndian(UInt32(bytes.count)) + bytes }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
