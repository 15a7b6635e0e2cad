import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import Testing
import TestSupport

/// `mdocverify verify … --status-list FILE --revocation hard` with status lists that used to decide wrongly: another
/// trusted issuer's list, a float `exp` long past, an `iat` in the future; and `simulate`'s revocation faults run
/// through the verify command its case.json records.
@Suite("mdocverify status lists")
struct StatusListCLITests {
    static let time = Date(timeIntervalSince1970: 1_780_315_200)  // 2026-06-01T12:00:00Z
    static let transcript = SessionTranscript(built: .array([.null, .null, .text("StatusListCLITests")]))

    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mdocverify-status-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes a simulated mDL with `faults`, its transcript, the IACA (and any other trusted issuer's), the CRL and the
    /// status list; returns the verify arguments.
    static func arguments(faults: [Fault], policy: String, in folder: URL) throws -> [String] {
        let pki = try TestPKI(seed: 53, at: time)
        let response = try MdocSimulator(pki: pki).simulate(.deviceResponse(transcript), options: SimulationOptions(time: time, faults: faults))
        func write(_ bytes: [UInt8], _ name: String) throws -> String {
            let url = folder.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            return url.path
        }
        var arguments = ["verify", "device-response", "--device-response", try write(response.bytes, "response.cbor"),
                         "--session-transcript", try write(transcript.bytes, "transcript.cbor"),
                         "--trust", try write(Array(pki.iaca.pemEncoded.utf8), "iaca.pem"),
                         "--crl", try write(Array(response.revocation.crl.pemEncoded.utf8), "iaca.crl"),
                         "--at", RFC3339.format(time), "--revocation", policy, "--json"]
        for (index, anchor) in response.revocation.otherIssuerAnchors.enumerated() {
            arguments += ["--trust", try write(Array(anchor.pemEncoded.utf8), "other-\(index).pem")]
        }
        for (index, token) in response.revocation.tokens.values.enumerated() {
            arguments += ["--status-list", try write(token, "list-\(index).cwt")]
        }
        return arguments
    }

    static func codes(_ run: MdocVerifyCLI.Run) throws -> [String] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        return (report["errors"] as? [[String: Any]])?.compactMap { $0["code"] as? String } ?? []
    }

    @Test("another trusted issuer's all-valid list for this issuer's URI: exit 1 with status.signer_untrusted under hard and soft")
    func otherIssuer() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for policy in ["hard", "soft"] {
            let run = try MdocVerifyCLI.run(try Self.arguments(faults: [.statusListOtherIssuer], policy: policy, in: folder))
            #expect(run.status == 1, "\(policy): \(run.stdout) \(run.stderr)")
            #expect(try Self.codes(run) == ["status.signer_untrusted"], "\(policy): \(run.stdout)")
            #expect(run.stdout.contains("which does not chain to"))
        }
        // The issuer's own list: exit 0.
        let clean = try MdocVerifyCLI.run(try Self.arguments(faults: [], policy: "hard", in: folder))
        #expect(clean.status == 0, "\(clean.stdout) \(clean.stderr)")
    }

    @Test("a float exp 60 days past, and an iat in the future: exit 1 with revocation.unknown under hard; exit 0 with the warning under soft",
          arguments: [(Fault.statusListExpiredFloatExp, "expired 2026-04-02T12:00:00.5Z"), (.statusListIssuedInFuture, "after the verification time")])
    func claims(_ fault: Fault, _ reason: String) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let hard = try MdocVerifyCLI.run(try Self.arguments(faults: [fault], policy: "hard", in: folder))
        #expect(hard.status == 1, "\(hard.stdout) \(hard.stderr)")
        #expect(try Self.codes(hard) == ["revocation.unknown"])
        #expect(hard.stdout.contains(reason), "\(hard.stdout)")
        let soft = try MdocVerifyCLI.run(try Self.arguments(faults: [fault], policy: "soft", in: folder))
        #expect(soft.status == 0, "\(soft.stdout) \(soft.stderr)")
        #expect(soft.stdout.contains(reason))
    }

    @Test("simulate writes every list and the other issuer's IACA; case.json's verify command ends in the fault's code",
          arguments: [Fault.statusListOtherIssuer, .identifierListRevoked, .statusListExpiredFloatExp, .statusListIssuedInFuture, .statusListUntrusted])
    func simulated(_ fault: Fault) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let keys = try MdocVerifyCLI.run(["keygen", "--out", folder.path + "/keys"])
        #expect(keys.status == 0, "\(keys.stderr)")
        let privateKey = folder.path + "/keys/merchant-private.pem"
        let out = folder.path + "/case"
        let simulated = try MdocVerifyCLI.run(["simulate", "apple-app", "--merchant-key", privateKey, "--merchant-id", "merchant.com.example",
                                               "--team-id", "ABCDE12345", "--nonce", "6e6f6e6365", "--at", RFC3339.format(Self.time),
                                               "--out", out, "--fault", fault.name])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let caseJSON = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/case.json"))) as? [String: Any])
        let command = try #require(caseJSON["verify"] as? String)
        if fault == .statusListOtherIssuer { #expect(command.contains("--trust \(out)/other-issuer-iaca-1.pem")) }
        if fault == .identifierListRevoked {
            #expect(command.contains("--status-list \(out)/identifier-list.cwt") && command.contains("--status-list \(out)/status-list.cwt"))
        }
        let arguments = command.split(separator: " ").dropFirst().map(String.init) + ["--json"]
        let run = try MdocVerifyCLI.run(arguments)
        #expect(run.status == 1, "\(run.stdout) \(run.stderr)")
        let code = try #require(fault.expectedCode(format: .appleApp))
        #expect(try Self.codes(run) == [code.rawValue], "\(run.stdout)")
    }
}
