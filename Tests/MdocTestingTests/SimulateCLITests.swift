import Foundation
import Mdoc
import MdocModel
import MdocTesting
import Testing
import TestSupport

/// keygen → simulate → verify with the built `mdocverify`, the way the README shows it.
@Suite("mdocverify simulate / keygen")
struct SimulateCLITests {
    typealias Run = MdocVerifyCLI.Run

    static func run(_ arguments: [String]) throws -> Run { try MdocVerifyCLI.run(arguments) }

    static func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("mdocverify-sim-\(UUID().uuidString)").path
    }

    static let at = "2026-06-01T12:00:00Z"
    static let nonce = "6e6f6e63652d666f722d74657374696e67"

    /// keygen into `directory/keys`, returning the private key path.
    static func keygen(_ directory: String) throws -> (privateKey: String, publicKey: String, pkRHash: String) {
        let run = try Self.run(["keygen", "--out", directory + "/keys"])
        #expect(run.status == 0, "\(run.stderr)")
        let label = "pkRHash (hex): "
        let line = run.stdout.split(separator: "\n").first { $0.hasPrefix(label) } ?? ""
        return (directory + "/keys/merchant-private.pem", directory + "/keys/merchant-public.pem", String(line.dropFirst(label.count)))
    }

    static func simulate(_ directory: String, publicKey: String, extra: [String] = []) throws -> Run {
        try run(["simulate", "apple-app", "--merchant-key", publicKey, "--merchant-id", "merchant.com.example", "--team-id", "ABCDE12345",
                 "--nonce", nonce, "--at", at, "--out", directory] + extra)
    }

    static func verify(_ directory: String, privateKey: String, json: Bool = false) throws -> Run {
        try run(["verify", "apple-app", "--response", directory + "/response.cbor", "--private-key", privateKey,
                 "--merchant-id", "merchant.com.example", "--team-id", "ABCDE12345", "--nonce", nonce,
                 "--trust", directory + "/iaca.pem", "--at", at] + (json ? ["--json"] : []))
    }

    @Test("keygen writes a PKCS#8 private key and an SPKI public key and prints the pkRHash")
    func keygen() throws {
        let directory = Self.temporaryDirectory()
        let keys = try Self.keygen(directory)
        let privatePEM = try String(contentsOfFile: keys.privateKey, encoding: .utf8)
        let publicPEM = try String(contentsOfFile: keys.publicKey, encoding: .utf8)
        #expect(privatePEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(publicPEM.hasPrefix("-----BEGIN PUBLIC KEY-----"))
        #expect(keys.pkRHash.count == 64 && Hex.decode(keys.pkRHash) != nil)
        let attributes = try FileManager.default.attributesOfItem(atPath: keys.privateKey)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test("keygen → simulate → verify apple-app exits 0; case.json records the inputs and the expected verdict")
    func roundTrip() throws {
        let directory = Self.temporaryDirectory()
        let keys = try Self.keygen(directory)
        let simulated = try Self.simulate(directory + "/ok", publicKey: keys.publicKey,
                                          extra: ["--elements", "org.iso.18013.5.1:family_name,org.iso.18013.5.1:age_over_21"])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        #expect(simulated.stdout.contains("expected: verified"))
        let verified = try Self.verify(directory + "/ok", privateKey: keys.privateKey)
        #expect(verified.status == 0, "\(verified.stdout)\n\(verified.stderr)")
        #expect(verified.stdout.hasPrefix("VERIFIED apple-app"))
        #expect(verified.stdout.contains("family_name: Garcia"))
        #expect(!verified.stdout.contains("portrait"))

        let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/ok/case.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["format"] as? String == "apple-app")
        #expect(object["pkRHash"] as? String == keys.pkRHash)
        #expect(object["elements"] as? [String] == ["org.iso.18013.5.1:family_name", "org.iso.18013.5.1:age_over_21"])
        #expect((object["expected"] as? [String: Any])?["verified"] as? Bool == true)
    }

    @Test("with --fault the verifier exits 1 and --json names the fault's code", arguments: [Fault.msoExpired, .tamperedElementValue, .wrongInfoHash])
    func faulted(_ fault: Fault) throws {
        let directory = Self.temporaryDirectory()
        let keys = try Self.keygen(directory)
        let simulated = try Self.simulate(directory, publicKey: keys.privateKey, extra: ["--fault", fault.name, "--seed", "7"])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let code = try #require(fault.expectedCode(format: .appleApp))
        let caseJSON = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/case.json"))) as? [String: Any])
        #expect((caseJSON["expected"] as? [String: Any])?["code"] as? String == code.rawValue)
        #expect(caseJSON["faults"] as? [String] == [fault.name])
        let verified = try Self.verify(directory, privateKey: keys.privateKey, json: true)
        #expect(verified.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(verified.stdout.utf8)) as? [String: Any])
        let codes = (report["errors"] as? [[String: Any]])?.compactMap { $0["code"] as? String }
        #expect(codes.map(Set.init) == [code.rawValue])
    }

    @Test("simulate --list-faults lists every fault with its code; --json as well")
    func listFaults() throws {
        let text = try Self.run(["simulate", "--list-faults"])
        #expect(text.status == 0)
        for fault in Fault.allCases {
            #expect(text.stdout.contains(fault.name))
        }
        #expect(text.stdout.contains("envelope.recipient_mismatch (apple-app), hpke.open_failed (annex-c)"))
        let json = try Self.run(["simulate", "--list-faults", "--json"])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(entries.count == Fault.allCases.count)
        #expect(entries.first?["name"] as? String == Fault.allCases.first?.name)
        // Every format a fault applies to is listed (the list is derived from the report formats, not written out).
        for (entry, fault) in zip(entries, Fault.allCases) {
            let listed = Set(((entry["expectedCode"] as? [String: Any]) ?? [:]).keys)
            #expect(listed == Set(fault.formats.map(\.rawValue)), "\(fault.name)")
        }
        #expect(entries.contains { ($0["expectedCode"] as? [String: Any])?.keys.contains("openid4vp") == true })
    }

    @Test("simulate without a format names every format it can build")
    func usageNamesFormats() throws {
        let run = try Self.run(["simulate"])
        #expect(run.status == 2)
        for name in ["apple-app", "annex-c"] { #expect(run.stderr.contains(name), "\(run.stderr)") }
    }

    @Test("usage errors exit 2: unknown fault, a fault for another format, bad elements, unreadable key, no format")
    func usageErrors() throws {
        let directory = Self.temporaryDirectory()
        let keys = try Self.keygen(directory)
        let unknown = try Self.simulate(directory, publicKey: keys.publicKey, extra: ["--fault", "no-such-fault"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("no-such-fault"))
        let elements = try Self.simulate(directory, publicKey: keys.publicKey, extra: ["--elements", "family_name"])
        #expect(elements.status == 2)
        let missingElement = try Self.simulate(directory, publicKey: keys.publicKey, extra: ["--elements", "org.iso.18013.5.1:shoe_size"])
        #expect(missingElement.status == 2)
        let key = try Self.simulate(directory, publicKey: "/nonexistent/key.pem")
        #expect(key.status == 2)
        let none = try Self.run(["simulate"])
        #expect(none.status == 2)
    }

    @Test("request annex-c → simulate annex-c → verify annex-c: exit 0, and exit 1 with the fault's code")
    func annexCRoundTrip() throws {
        let directory = Self.temporaryDirectory()
        let policy = #"{"documents":[{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"family_name":false}}}]}"#
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(policy.utf8).write(to: URL(fileURLWithPath: directory + "/policy.json"))
        let request = try Self.run(["request", "annex-c", "--origin", "https://shop.example", "--request", directory + "/policy.json",
                                    "--out", directory + "/request"])
        #expect(request.status == 0, "\(request.stderr)")
        for (fault, code) in [(nil, nil), (Fault.corruptedCiphertext, "hpke.open_failed"), (.msoDocTypeMismatch, "mso.doctype_mismatch")] {
            let out = directory + "/" + (fault?.name ?? "ok")
            let simulated = try Self.run(["simulate", "annex-c", "--encryption-info", directory + "/request/data.json",
                                          "--origin", "https://shop.example", "--elements", "org.iso.18013.5.1:family_name",
                                          "--at", Self.at, "--out", out] + (fault.map { ["--fault", $0.name] } ?? []))
            #expect(simulated.status == 0, "\(simulated.stderr)")
            let verified = try Self.run(["verify", "annex-c", "--response", out + "/response.txt", "--session", directory + "/request/session.json",
                                         "--trust", out + "/iaca.pem", "--request", directory + "/policy.json", "--at", Self.at, "--json"])
            let report = try #require(try JSONSerialization.jsonObject(with: Data(verified.stdout.utf8)) as? [String: Any])
            let codes = (report["errors"] as? [[String: Any]])?.compactMap { $0["code"] as? String } ?? []
            if let code {
                #expect(verified.status == 1)
                #expect(Set(codes) == [code])
            } else {
                #expect(verified.status == 0, "\(verified.stdout)")
                #expect(codes.isEmpty)
            }
        }
    }

    @Test("a brainpoolP384r1 issuer verifies end to end; a pinned document signer verifies with a warning, not under strict")
    func brainpoolAndPinnedSigner() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keys = try Self.keygen(directory)
        let simulated = try Self.simulate(directory + "/bp", publicKey: keys.publicKey, extra: ["--issuer-curve", "brainpoolP384r1"])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let verified = try Self.verify(directory + "/bp", privateKey: keys.privateKey, json: true)
        #expect(verified.status == 0, "\(verified.stdout)")
        #expect(verified.stdout.contains("ES384"))

        let pinned = ["verify", "apple-app", "--response", directory + "/bp/response.cbor", "--private-key", keys.privateKey,
                      "--merchant-id", "merchant.com.example", "--team-id", "ABCDE12345", "--nonce", Self.nonce,
                      "--trust", directory + "/bp/document-signer.pem", "--at", Self.at]
        let lenient = try Self.run(pinned)
        #expect(lenient.status == 0, "\(lenient.stdout)")
        #expect(lenient.stdout.contains("not a self-signed root"))
        let strict = try Self.run(pinned + ["--profile", "strict"])
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("issuer.chain_untrusted"))
    }

    @Test("a pinned intermediate CA anchors the document signer it issued (intermediate-ca fault), with the warning")
    func pinnedIntermediate() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keys = try Self.keygen(directory)
        let simulated = try Self.simulate(directory + "/ica", publicKey: keys.publicKey, extra: ["--fault", "intermediate-ca"])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        // Trusting the IACA, the intermediate is refused; pinning the intermediate itself anchors the chain.
        #expect(try Self.verify(directory + "/ica", privateKey: keys.privateKey).status == 1)
        let pinned = try Self.run(["verify", "apple-app", "--response", directory + "/ica/response.cbor", "--private-key", keys.privateKey,
                                   "--merchant-id", "merchant.com.example", "--team-id", "ABCDE12345", "--nonce", Self.nonce,
                                   "--trust", directory + "/ica/intermediate-ca.pem", "--at", Self.at])
        #expect(pinned.status == 0, "\(pinned.stdout)")
        #expect(pinned.stdout.contains("MdocTesting Intermediate CA") && pinned.stdout.contains("not a self-signed root"))
    }
}
