import CryptoCore
import Foundation
import Mdoc
import MdocModel
import Testing
import TestSupport

/// `mdocverify verify device-response` with the ISO/IEC 18013-5 Annex D example, from temporary files.
@Suite("mdocverify verify device-response")
struct DeviceResponseCLITests {
    static let iaca = "Certificates/test/iso18013-5-annex-d-utopia-iaca.pem"

    /// Response and transcript as raw CBOR files, the reader key as PKCS#8 PEM built from keys.json.
    static func files(response: [UInt8] = AnnexDVector.deviceResponse) throws -> (response: String, transcript: String, readerKey: String) {
        let key = try AnnexDVector.readerKey()
        return (try MdocVerifyCLITests.temporaryFile(response),
                try MdocVerifyCLITests.temporaryFile(AnnexDVector.sessionTranscriptBytes),
                try MdocVerifyCLITests.temporaryFile(Array(key.pkcs8PEM().utf8)))
    }

    static func arguments(_ files: (response: String, transcript: String, readerKey: String), readerKey: Bool = true,
                          extra: [String] = []) -> [String] {
        ["verify", "device-response", "--device-response", files.response, "--session-transcript", files.transcript]
            + (readerKey ? ["--reader-private-key", files.readerKey] : [])
            + ["--trust", iaca, "--at", "2021-01-01T00:00:00Z"] + extra
    }

    @Test("Annex D verifies (exit 0) with the reader key; --json says format device-response")
    func verifies() throws {
        let files = try Self.files()
        let text = try MdocVerifyCLITests.run(Self.arguments(files))
        #expect(text.status == 0, "\(text.stdout) \(text.stderr)")
        #expect(text.stdout.hasPrefix("VERIFIED device-response"))
        #expect(text.stdout.contains("family_name: Doe"))
        let json = try MdocVerifyCLITests.run(Self.arguments(files, extra: ["--json"]))
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "device-response")
        #expect(object["verified"] as? Bool == true)
    }

    @Test("The untagged transcript and hex text files work too; a request policy is applied")
    func untaggedAndHex() throws {
        let untagged = try SessionTranscript(encoded: AnnexDVector.sessionTranscriptBytes).bytes
        let transcript = try MdocVerifyCLITests.temporaryFile(Array(Hex.encode(untagged).utf8))
        let key = try MdocVerifyCLITests.temporaryFile(Array(try AnnexDVector.readerKey().pkcs8PEM().utf8))
        let request = try MdocVerifyCLITests.temporaryFile(Array(#"{"documents":[{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"family_name":true}}}]}"#.utf8))
        let run = try MdocVerifyCLITests.run(["verify", "device-response", "--device-response", AnnexDVector.folder + "device_response.hex",
                                              "--session-transcript", transcript, "--reader-private-key", key, "--trust", Self.iaca,
                                              "--at", "2021-01-01T00:00:00Z", "--request", request, "--json"])
        // Five of the six returned elements were not requested.
        #expect(run.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let codes = (object["errors"] as? [[String: String]])?.compactMap { $0["code"] }
        #expect(codes == Array(repeating: "policy.element_not_requested", count: 5))
        let checks = try #require(object["checks"] as? [[String: Any]])
        #expect(checks.contains { $0["id"] as? String == "device.authentication" && $0["status"] as? String == "pass" })
    }

    @Test("Tampered MAC tag: exit 1 with device.mac_invalid; no reader key: exit 1 with device.auth_missing")
    func rejections() throws {
        var tampered = AnnexDVector.deviceResponse
        tampered[3522] = 0xe8
        let mac = try MdocVerifyCLITests.run(Self.arguments(try Self.files(response: tampered), extra: ["--json"]))
        #expect(mac.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(mac.stdout.utf8)) as? [String: Any])
        #expect((object["errors"] as? [[String: String]])?.map { $0["code"] } == ["device.mac_invalid"])
        let noKey = try MdocVerifyCLITests.run(Self.arguments(try Self.files(), readerKey: false))
        #expect(noKey.status == 1)
        #expect(noKey.stdout.contains("device.auth_missing"))
    }

    @Test("Exit 2: a transcript that is not a 3-element array, an unreadable reader key, a missing option")
    func usage() throws {
        var files = try Self.files()
        files.transcript = try MdocVerifyCLITests.temporaryFile([0x82, 0xf6, 0xf6])
        let badTranscript = try MdocVerifyCLITests.run(Self.arguments(files))
        #expect(badTranscript.status == 2)
        #expect(badTranscript.stderr.contains("session transcript"))
        files = try Self.files()
        files.readerKey = "/nonexistent/reader.pem"
        #expect(try MdocVerifyCLITests.run(Self.arguments(files)).status == 2)
        #expect(try MdocVerifyCLITests.run(["verify", "device-response", "--device-response", files.response]).status == 2)
    }

    @Test("A response file over the ceiling is refused from its size, before it is read (exit 2, names the limit)")
    func oversizedFile() throws {
        let files = try Self.files()
        let big = FileManager.default.temporaryDirectory.appendingPathComponent("mdocverify-big-\(UUID().uuidString).hex")
        #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: big) }
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: 50_000_000)  // sparse: no 50 MB written or read
        try handle.close()
        let run = try MdocVerifyCLITests.run(Self.arguments((big.path, files.transcript, files.readerKey)))
        #expect(run.status == 2)
        #expect(run.stderr.contains("50000000 bytes; the limit is"), "\(run.stderr)")
    }
}
