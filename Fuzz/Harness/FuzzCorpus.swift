import CryptoCore

/// Corpus and regression files are named by their content, as libFuzzer names what it finds.
public enum FuzzCorpus {
    public static func fileName(_ input: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: Digest.hash(.sha256, input).prefix(20).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] },
                      as: UTF8.self)
    }
}
