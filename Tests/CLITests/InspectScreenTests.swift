import Foundation
import Testing
import TestSupport

/// `inspect` for people (issue 37, "Done when"): Apple's sample opened with its key shows the decoded MSO, and every
/// mdoc structure fits a screen (at most 50 lines of at most 100 columns; the containers, Document and IssuerSigned,
/// two).
@Suite("mdocverify inspect fits a screen per structure")
struct InspectScreenTests {
    static let sample = "TestVectors/apple/in-app-sample/"

    /// The lines of the block that starts at `index`: that line and those indented deeper after it.
    static func block(_ lines: [String], at index: Int) -> ArraySlice<String> {
        func indent(_ line: String) -> Int { line.prefix { $0 == " " }.count }
        let depth = indent(lines[index])
        let end = lines[(index + 1)...].firstIndex { indent($0) <= depth } ?? lines.endIndex
        return lines[index..<end]
    }

    @Test("Apple's sample with its key: the MSO decoded, each structure within 50 lines, no line over 100 columns")
    func appleSampleFits() throws {
        let nonce = try #require(VectorFiles.text(Self.sample + "session_transcript_parameters.txt").split(separator: "\n")
            .first { $0.hasPrefix("Nonce: ") }.map { String($0.dropFirst("Nonce: ".count)) })
        let run = try MdocVerifyCLI.run(["inspect", VectorFiles.url(Self.sample + "hpke_envelope.cbor.hex").path,
                                         "--private-key", VectorFiles.url(Self.sample + "merchant_encryption.key").path,
                                         "--merchant-id", "PassKit_Identity_Test_Merchant_ID", "--team-id", "PassKit_Identity_Test_Team_ID",
                                         "--nonce", nonce, "--allow-test-key"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.count <= 100 }, "\(lines.filter { $0.count > 100 })")
        let structures = ["Document", "IssuerSigned", "nameSpaces", "COSE_Sign1", "MobileSecurityObject", "DeviceSigned"]
        var seen = Set<String>()
        for (index, line) in lines.enumerated() {
            guard let name = structures.first(where: { line.hasSuffix(" " + $0) })
            else { continue }
            seen.insert(name)
            let block = Self.block(lines, at: index)
            // A Document and its IssuerSigned hold the other structures: two screens at most, each part of them one.
            let screens = ["Document", "IssuerSigned"].contains(name) ? 2 : 1
            #expect(block.count <= 50 * screens, "\(name) takes \(block.count) lines:\n\(block.joined(separator: "\n"))")
        }
        #expect(seen.isSuperset(of: ["IssuerSigned", "COSE_Sign1", "MobileSecurityObject", "DeviceSigned"]), "\(seen)")
        // The MSO is decoded, not shown as bytes.
        let mso = try #require(lines.firstIndex { $0.hasSuffix("MobileSecurityObject") })
        let decoded = Self.block(lines, at: mso).joined(separator: "\n")
        for member in ["digestAlgorithm: \"SHA-256\"", "valueDigests", "deviceKeyInfo", "validityInfo", "docType: \"org.iso.18013.5.1.mDL\""] {
            #expect(decoded.contains(member), "\(member)")
        }
    }
}
