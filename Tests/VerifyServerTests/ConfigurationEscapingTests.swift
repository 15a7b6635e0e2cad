import Foundation
import Testing

/// The configuration problems verify-server prints before refusing to start quote files, VICAL providers and
/// certificates; control and bidi characters in them are escaped.
@Suite("verify-server configuration problems are printed escaped")
struct ConfigurationEscapingTests {
    @Test("a key path with ESC, CR and U+202E is printed as visible escapes")
    func escapedProblem() throws {
        let (status, text) = try ServerProcess.runToExit(environment: [
            "VERIFY_SERVER_MERCHANT_ID": "m", "VERIFY_SERVER_TEAM_ID": "t",
            "VERIFY_SERVER_DECRYPTION_KEYS": "/nonexistent\u{1B}[2J\r\u{202E}.pem", "VERIFY_SERVER_TRUST_STORE": AppleSample.rootPath,
        ])
        #expect(status == 2)
        #expect(!text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\r" || $0 == "\u{202E}" }, "\(text.debugDescription)")
        #expect(text.contains(#"/nonexistent\u{1B}[2J\r\u{202E}.pem: cannot read the file"#), "\(text)")
    }
}
