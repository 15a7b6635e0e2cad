import Foundation
import Testing
import TestSupport
import VerifyServer

/// docs/configuration.md is generated from `ConfigurationKey.all`; the committed file must be what the code generates.
@Suite("verify-server configuration reference")
struct ConfigurationReferenceTests {
    @Test("docs/configuration.md equals the generator's output (regenerate: swift run verify-server --print-config-reference > docs/configuration.md)")
    func committedFileIsCurrent() {
        let committed = VectorFiles.text("docs/configuration.md")
        let generated = ConfigurationReference.markdown
        if committed != generated {
            let committedLines = Set(committed.split(separator: "\n"))
            let changed = generated.split(separator: "\n").filter { !committedLines.contains($0) }
            Issue.record("docs/configuration.md is out of date; run: \(ConfigurationReference.command)\nlines not in the file: \(changed.prefix(5))")
        }
    }

    @Test("every key has a description, and the reference names every key's environment variable and default")
    func everyKeyDescribed() {
        #expect(ConfigurationReference.undescribedKeys.isEmpty,
                "add a description where the key is declared (ConfigurationKeys.swift): \(ConfigurationReference.undescribedKeys)")
        let text = ConfigurationReference.markdown
        #expect(text.contains("| `port` | `VERIFY_SERVER_PORT` | `8080` |"))
        #expect(text.contains("| `rateLimit` | `VERIFY_SERVER_RATE_LIMIT` | `50` |"))
        #expect(text.contains("| `trustedProxyHeader` | `VERIFY_SERVER_TRUSTED_PROXY_HEADER` | `x-forwarded-for` |"))
        #expect(text.contains("| (environment only) | `VERIFY_SERVER_STORE_PASSWORD` | (none) |"))
        #expect(text.contains("| `storeURL` | `VERIFY_SERVER_STORE_URL` | `sqlite:verify-server.sqlite` |"))
    }

    @Test("verify-server --print-config-reference prints the reference")
    func command() throws {
        let process = Process()
        process.executableURL = MdocVerifyCLI.builtProduct("verify-server")
        process.arguments = ["--print-config-reference"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: data, as: UTF8.self) == ConfigurationReference.markdown)
    }
}
