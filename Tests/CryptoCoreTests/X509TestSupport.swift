import CryptoCore
import Foundation
import Testing

/// Test vectors and small helpers for the X509* suites.
enum X509Fixtures {
    /// Repository root, found from this file's path (Tests/CryptoCoreTests/…).
    static let repoRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func path(_ relative: String) -> String { repoRoot.appendingPathComponent(relative).path }

    static func text(_ relative: String) throws -> String {
        try String(contentsOfFile: path(relative), encoding: .utf8)
    }

    /// Bytes of a hex text file (whitespace ignored).
    static func hexFile(_ relative: String) throws -> [UInt8] {
        try #require(bytes(hex: try text(relative)))
    }

    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.unicodeScalars.filter { !$0.properties.isWhitespace })
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let byte = UInt8(String(digits[index]) + String(digits[index + 1]), radix: 16) else { return nil }
            out.append(byte)
            index += 2
        }
        return out
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// "2022-06-01T00:00:00Z" → Date (tests only; never on a hot path).
    static func date(_ iso: String) -> Date {
        guard let date = ISO8601DateFormatter().date(from: iso) else { fatalError("bad test date \(iso)") }
        return date
    }

    static func appleDS() throws -> Certificate {
        try Certificate(pemEncoded: text("TestVectors/apple/in-app-sample/issuer_signing.crt"))
    }

    static func appleRoot() throws -> Certificate {
        try Certificate(pemEncoded: text("TestVectors/apple/in-app-sample/issuer_root.crt"))
    }

    static func annexD(_ name: String) throws -> Certificate {
        try Certificate(derEncoded: hexFile("TestVectors/iso18013-5/annex-d/\(name).der.hex"))
    }

    /// Asserts a failed validation with `reason` and returns the failure.
    @discardableResult
    static func expectFailure(
        _ result: ChainValidationResult, _ reason: ChainValidationFailure.Reason,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> ChainValidationFailure? {
        guard case .failed(let failure) = result else {
            Issue.record("expected failure \(reason), got \(result)", sourceLocation: sourceLocation)
            return nil
        }
        #expect(failure.reason == reason, "\(failure)", sourceLocation: sourceLocation)
        return failure
    }

    /// Asserts a trusted result and returns the chain.
    @discardableResult
    static func expectTrusted(_ result: ChainValidationResult, sourceLocation: SourceLocation = #_sourceLocation) -> [Certificate] {
        switch result {
        case .trusted(let chain):
            return chain
        case .failed(let failure):
            Issue.record("expected trusted, got \(failure)", sourceLocation: sourceLocation)
            return []
        }
    }
}
