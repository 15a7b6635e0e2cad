import TestSupport
import CryptoCore
import Foundation
import Testing

/// Test vectors and small helpers for the X509* suites.
enum X509Fixtures {
    static func path(_ relative: String) -> String { VectorFiles.url(relative).path }

    static func text(_ relative: String) throws -> String { VectorFiles.text(relative) }

    /// Bytes of a hex text file (whitespace ignored).
    static func hexFile(_ relative: String) throws -> [UInt8] { VectorFiles.hex(relative) }

    static func bytes(hex text: String) -> [UInt8]? { TestSupport.hex(text) }

    static func hex(_ bytes: [UInt8]) -> String { hexString(bytes) }

    static func date(_ iso: String) -> Date { VectorFiles.date(iso) }

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
