import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import MdocTrust
import Testing
import TestSupport

/// The mistakes a newcomer makes on the command line, each answered with what was found and what to pass instead
/// (issue 37): never a parser's complaint about byte 1.
@Suite("mdocverify errors name the fix")
struct NewcomerErrorTests {
    typealias Run = MdocVerifyCLI.Run

    static let sample = MdocVerifyCLITests.sample
    static let sampleRoot = "Certificates/test/apple-passkit-identity-test-issuer-root.pem"

    static func folder() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mdocverify-newcomer-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func write(_ text: String, _ directory: String, _ name: String) throws -> String {
        let path = directory + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The sample root as hex text of its DER, the way some vectors ship certificates.
    static func hexRoot(in directory: String) throws -> String {
        let root = try Certificate(pemEncoded: String(contentsOfFile: VectorFiles.url(sampleRoot).path, encoding: .utf8))
        return try write(Hex.encode(root.derEncoded) + "\n", directory, "root.hex")
    }

    /// `arguments` with the value of `option` replaced.
    static func replacing(_ option: String, with value: String, in arguments: [String]) -> [String] {
        var arguments = arguments
        if let index = arguments.firstIndex(of: option), index + 1 < arguments.count { arguments[index + 1] = value }
        return arguments
    }

    /// `keygen` into `directory/keys`.
    static func keygen(_ directory: String) throws -> Run {
        let run = try MdocVerifyCLI.run(["keygen", "--out", directory + "/keys"])
        #expect(run.status == 0, "\(run.stderr)")
        return run
    }

    // MARK: 1. PEM, DER and JSON where CBOR is expected (and binary where text is)

    @Test("a PEM certificate, a PEM private key or hex of a DER certificate as the response: exit 2 naming what it is and its option")
    func certificateAsResponse() throws {
        let directory = Self.folder()
        let hexRoot = try Self.hexRoot(in: directory)
        let cases: [(file: String, says: String)] = [
            (Self.sampleRoot, "is a PEM certificate, not CBOR: pass it with --trust"),
            (Self.sample + "merchant_encryption.key", "is a PEM private key, not CBOR: pass it with --private-key"),
            (hexRoot, "is hex text of a DER certificate, not CBOR: pass it with --trust"),
            (try Self.write(Data(try #require(Hex.decode(String(contentsOfFile: hexRoot, encoding: .utf8)))).base64EncodedString(options: .lineLength64Characters),
                            directory, "root.b64"), "is base64 text of a DER certificate, not CBOR: pass it with --trust"),
            (try Self.write(#"{"response":"abc"}"#, directory, "data.json"), "is JSON, not CBOR"),
        ]
        for (file, says) in cases {
            let run = try MdocVerifyCLI.run(MdocVerifyCLITests.appleArguments(response: file))
            #expect(run.status == 2, "\(file): \(run.stdout)")
            #expect(run.stderr.contains("response at \(file) \(says)"), "\(run.stderr)")
            #expect(!run.stderr.contains("trailing bytes"))
        }
    }

    @Test("a PEM file as the session transcript or the VICAL says so; a VICAL's certificate belongs to --root")
    func certificateAsTranscriptOrVICAL() throws {
        let annexD = "TestVectors/iso18013-5/annex-d/"
        let transcript = try MdocVerifyCLI.run(["verify", "device-response", "--device-response", annexD + "device_response.hex",
                                                "--session-transcript", Self.sampleRoot, "--trust", Self.sampleRoot])
        #expect(transcript.status == 2)
        #expect(transcript.stderr.contains("session transcript at \(Self.sampleRoot) is a PEM certificate, not CBOR: pass it with --trust"),
                "\(transcript.stderr)")
        let vical = try MdocVerifyCLI.run(["trust", "vical", "verify", "--vical", Self.sampleRoot, "--root", Self.sampleRoot])
        #expect(vical.status == 2)
        #expect(vical.stderr.contains("VICAL at \(Self.sampleRoot) is a PEM certificate, not CBOR: pass it with --root"), "\(vical.stderr)")
    }

    @Test("verify annex-c: a raw CBOR or PEM file as the response says what it is instead of reading it as text")
    func binaryAsTextResponse() throws {
        let out = try AnnexCCLITests.createRequest()
        let (_, trust) = try AnnexCCLITests.walletResponse(for: out)
        let binary = try MdocVerifyCLITests.temporaryFile(AppleSampleVector.envelope)
        let raw = try MdocVerifyCLI.run(try AnnexCCLITests.verifyArguments(out, response: binary, trust: trust))
        #expect(raw.status == 2)
        #expect(raw.stderr.contains("is binary data (raw CBOR?), not text"), "\(raw.stderr)")
        let pem = try MdocVerifyCLI.run(try AnnexCCLITests.verifyArguments(out, response: trust, trust: trust))
        #expect(pem.status == 2)
        #expect(pem.stderr.contains("is a PEM certificate, not a response: pass it with --trust"), "\(pem.stderr)")
    }

    // MARK: 2. --encryption-info FILE

    @Test("verify annex-c --encryption-info takes a file's path as well as its contents; a missing path is exit 2")
    func encryptionInfoFile() throws {
        let out = try AnnexCCLITests.createRequest()
        let (response, trust) = try AnnexCCLITests.walletResponse(for: out)
        let info = try AnnexCCLITests.kept(out, "encryptionInfo")
        let byValue = try MdocVerifyCLI.run(try AnnexCCLITests.verifyArguments(out, response: response, trust: trust, encryptionInfo: info))
        #expect(byValue.status == 0, "\(byValue.stdout) \(byValue.stderr)")
        let byPath = try MdocVerifyCLI.run(try AnnexCCLITests.verifyArguments(out, response: response, trust: trust,
                                                                               encryptionInfo: try Self.write(info, Self.folder(), "info.txt")))
        #expect(byPath.status == 0, "\(byPath.stdout) \(byPath.stderr)")
        // A file written with a trailing newline (echo) is the same string.
        let echoed = try Self.write(info + "\n", Self.folder(), "info.txt")
        let withNewline = try MdocVerifyCLI.run(try AnnexCCLITests.verifyArguments(out, response: response, trust: trust, encryptionInfo: echoed))
        #expect(withNewline.status == 0, "\(withNewline.stdout) \(withNewline.stderr)")
        let missing = try MdocVerifyCLI.run(try AnnexCCLITests.verifyArguments(out, response: response, trust: trust,
                                                                                encryptionInfo: out + "/no-such-file.txt"))
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("is neither a base64url encryptionInfo nor an existing file"), "\(missing.stderr)")
        let help = try MdocVerifyCLI.run(["verify", "annex-c", "--help"])
        #expect(help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains("or a file holding it"))
    }

    // MARK: 3. the public half as --private-key

    @Test("a public key as --private-key: 'the public half', and the private file beside it is named")
    func publicKeyAsPrivateKey() throws {
        let directory = Self.folder()
        _ = try Self.keygen(directory)
        let publicKey = directory + "/keys/merchant-public.pem"
        var arguments = MdocVerifyCLITests.appleArguments()
        arguments = Self.replacing("--private-key", with: publicKey, in: arguments)
        let run = try MdocVerifyCLI.run(arguments)
        #expect(run.status == 2)
        #expect(run.stderr.contains("private key at \(publicKey) is a public key (the public half of the key pair); pass the private key file"),
                "\(run.stderr)")
        #expect(run.stderr.contains(directory + "/keys/merchant-private.pem"))
        arguments = Self.replacing("--private-key", with: Self.sampleRoot, in: arguments)
        let certificate = try MdocVerifyCLI.run(arguments)
        #expect(certificate.status == 2)
        #expect(certificate.stderr.contains("is a certificate (it holds only the public key)"), "\(certificate.stderr)")
    }

    // MARK: 4. hex DER trust files

    @Test("--trust FILE holding hex of a DER certificate is read like the PEM; in a folder it is named with what to do")
    func hexTrustFile() throws {
        let directory = Self.folder()
        let hexRoot = try Self.hexRoot(in: directory)
        var arguments = MdocVerifyCLITests.appleArguments()
        arguments = Self.replacing("--trust", with: hexRoot, in: arguments)
        let run = try MdocVerifyCLI.run(arguments)
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        let list = try MdocVerifyCLI.run(["trust", "list", "--trust", hexRoot])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("1 anchor(s)") && list.stdout.contains("file   \(hexRoot)"), "\(list.stdout)")

        let trustFolder = directory + "/anchors"
        try FileManager.default.createDirectory(atPath: trustFolder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: hexRoot, toPath: trustFolder + "/root.der")
        arguments = Self.replacing("--trust", with: trustFolder, in: arguments)
        let inFolder = try MdocVerifyCLI.run(arguments)
        #expect(inFolder.status == 2)
        #expect(inFolder.stderr.contains("trust file \(trustFolder)/root.der is hex text of a DER certificate"), "\(inFolder.stderr)")
        #expect(!inFolder.stderr.contains("asn1"))

        arguments = Self.replacing("--trust", with: Self.sample + "merchant_encryption.key", in: arguments)
        let key = try MdocVerifyCLI.run(arguments)
        #expect(key.status == 2)
        #expect(key.stderr.contains("is a PEM private key, not a certificate; pass it with --private-key"), "\(key.stderr)")
    }

    // MARK: 5. a kit response against the production bundle

    @Test("a simulated response without --trust: the text report hints at --trust <case>/iaca.pem; --json keeps the report and hints on stderr")
    func kitResponseWithoutTrust() throws {
        let directory = Self.folder()
        _ = try Self.keygen(directory)
        let at = "2026-06-01T12:00:00Z"
        let simulated = try MdocVerifyCLI.run(["simulate", "apple-app", "--merchant-key", directory + "/keys/merchant-public.pem",
                                               "--merchant-id", "merchant.com.example", "--team-id", "ABCDE12345", "--nonce", "6e6f6e6365",
                                               "--at", at, "--out", directory + "/case1"])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let arguments = ["verify", "apple-app", "--response", directory + "/case1/response.cbor",
                         "--private-key", directory + "/keys/merchant-private.pem", "--merchant-id", "merchant.com.example",
                         "--team-id", "ABCDE12345", "--nonce", "6e6f6e6365", "--at", at]
        let hint = "no --trust was given, so the embedded production bundle was used; for responses from `mdocverify simulate` pass --trust <case>/iaca.pem"
        let text = try MdocVerifyCLI.run(arguments)
        #expect(text.status == 1)
        #expect(text.stdout.contains("issuer.chain_untrusted"))
        #expect(text.stdout.contains("Hint: " + hint), "\(text.stdout)")
        let json = try MdocVerifyCLI.run(arguments + ["--json"])
        #expect(json.status == 1)
        #expect(!json.stdout.contains("Hint") && !json.stdout.contains("hint"))
        #expect(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) is [String: Any])
        #expect(json.stderr.contains("hint: " + hint), "\(json.stderr)")
        // With --trust given, a chain that does not reach it gets no such hint.
        let other = try MdocVerifyCLI.run(arguments + ["--trust", Self.sampleRoot])
        #expect(other.status == 1)
        #expect(!other.stdout.contains("Hint"))
    }

    // MARK: 6. Apple's test key

    @Test("Apple's test key without --allow-test-key names the flag: loading the key (exit 2) and a response encrypted to it (exit 1)")
    func testKeyNamesTheFlag() throws {
        let load = try MdocVerifyCLI.run(MdocVerifyCLITests.appleArguments(extra: []))
        #expect(load.status == 2)
        #expect(load.stderr.contains("envelope.test_key") && load.stderr.contains("pass --allow-test-key"), "\(load.stderr)")

        let directory = Self.folder()
        _ = try Self.keygen(directory)
        var arguments = MdocVerifyCLITests.appleArguments(extra: [])
        arguments = Self.replacing("--private-key", with: directory + "/keys/merchant-private.pem", in: arguments)
        let report = try MdocVerifyCLI.run(arguments)
        #expect(report.status == 1)
        #expect(report.stdout.contains("envelope.test_key"))
        #expect(report.stdout.contains("Hint: the response is encrypted to Apple's published test key") && report.stdout.contains("--allow-test-key"),
                "\(report.stdout)")
    }

    // MARK: 8, 9. texts that cite files and sections; keygen's labels

    @Test("the input.size clause cites the README section that exists (Ceilings)")
    func clauseCitesCeilings() throws {
        let run = try MdocVerifyCLI.run(MdocVerifyCLITests.appleArguments(extra: ["--allow-test-key", "--json"]))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let checks = try #require(object["checks"] as? [[String: Any]])
        let clause = try #require(checks.first { $0["id"] as? String == "input.size" }?["clause"] as? String)
        #expect(clause == "input ceilings (README, Ceilings)")
        #expect(VectorFiles.text("README.md").contains("\n## Ceilings\n"))
    }

    @Test("keygen labels what it prints: the two files and the pkRHash")
    func keygenLabels() throws {
        let directory = Self.folder()
        let run = try Self.keygen(directory)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(run.stdout)")
        #expect(lines.first?.contains(directory + "/keys/merchant-private.pem") == true)
        let hash = try #require(lines.last)
        #expect(hash.hasPrefix("pkRHash (hex): "))
        #expect(Hex.decode(hash.dropFirst("pkRHash (hex): ".count))?.count == 32)
    }

    // MARK: 10. the runner drains both pipes

    @Test("MdocVerifyCLI.run returns when the tool writes more to stderr than a pipe holds (read concurrently, no deadlock)")
    func largeStderr() throws {
        let extra = (0 ..< 20_000).map { "unexpected\($0)" }
        let run = try MdocVerifyCLI.run(["sample"] + extra)
        #expect(run.status == 2)
        #expect(run.stderr.utf8.count > 128 * 1024)
        #expect(run.stderr.contains("unexpected19999"))
    }
}
