import CryptoCore
import Foundation
import Mdoc
import MdocModel
import Testing
import TestSupport

/// session.json: the one kept-state document every `request <format>` writes and every `verify <format> --session`
/// reads (README, "Kept state"), and the earlier files still read for one release.
@Suite("mdocverify session.json")
struct SessionFileCLITests {
    typealias Run = MdocVerifyCLI.Run

    static let origin = "https://shop.example"
    static let requestJSON = #"{"documents":[{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"family_name":false,"age_over_21":true}}}]}"#

    static func folder() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mdocverify-session-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func write(_ text: String, _ path: String) throws -> String {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func json(_ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    /// `request <format>` into `folder`/request; returns that folder.
    static func request(_ format: String, in folder: String, extra: [String] = []) throws -> String {
        let policy = try write(requestJSON, folder + "/policy.json")
        let out = folder + "/request"
        let arguments = ["request", format, "--request", policy, "--out", out]
            + (format == "apple-app" ? ["--merchant-id", "merchant.com.example", "--team-id", "ABCDE12345"] : ["--origin", origin])
        let run = try MdocVerifyCLI.run(arguments + extra)
        #expect(run.status == 0, "\(run.stderr)")
        return out
    }

    /// Runs the verify command the kit wrote into case.json, with `replace` applied to its arguments.
    static func verifyCase(_ folder: String, replace: ([String]) -> [String] = { $0 }) throws -> Run {
        let command = try #require(try json(folder + "/case.json")["verify"] as? String)
        return try MdocVerifyCLI.run(replace(Array(command.split(separator: " ").map(String.init).dropFirst())))
    }

    /// A wallet answer (the kit) to the Annex C request in `out`; returns the case folder.
    static func annexCAnswer(_ out: String, in folder: String) throws -> String {
        let wallet = folder + "/wallet"
        let run = try MdocVerifyCLI.run(["simulate", "annex-c", "--encryption-info", out + "/data.json", "--origin", origin,
                                         "--request", out + "/request.json", "--out", wallet])
        #expect(run.status == 0, "\(run.stderr)")
        return wallet
    }

    @Test("every request writes one versioned session.json (mode 0600) with its format, the kept state and the request")
    func everyRequestWritesTheDocument() throws {
        let expected: [(String, Set<String>, [String])] = [
            ("annex-c", ["encryptionInfo", "origin", "privateKey"], ["data.json", "request.json", "session.json"]),
            ("openid4vp", ["kid", "nonce", "origin", "privateKey", "queryDocTypes", "queryIDs", "responseMode", "x", "y"],
             ["dc-request.json", "request.json", "session.json"]),
            ("apple-app", ["nonce"], ["app-request.json", "request.json", "session.json"]),
        ]
        for (format, stateKeys, files) in expected {
            let out = try Self.request(format, in: Self.folder())
            #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == files, "\(format)")
            let document = try Self.json(out + "/session.json")
            #expect(document["version"] as? Int == 1)
            #expect(document["format"] as? String == format)
            #expect(Set((document["state"] as? [String: Any])?.keys.map { $0 } ?? []) == stateKeys, "\(format)")
            let request = try JSONSerialization.data(withJSONObject: try #require(document["request"]))
            #expect(try JSONDecoder().decode(RequestPolicy.self, from: request)
                    == (try JSONDecoder().decode(RequestPolicy.self, from: Data(Self.requestJSON.utf8))))
            #expect((document["merchantID"] as? String) == (format == "apple-app" ? "merchant.com.example" : nil))
            let permissions = try FileManager.default.attributesOfItem(atPath: out + "/session.json")[.posixPermissions] as? Int
            #expect(permissions == 0o600, "\(format)")
            // The text starts with the version, so a reader sees what it is.
            let text = try String(contentsOfFile: out + "/session.json", encoding: .utf8)
            #expect(text.hasPrefix("{\n  \"version\": 1,\n  \"format\": \"\(format)\""))
        }
    }

    @Test("apple-app: request apple-app → simulate apple-app --app-request → verify apple-app --session (and inspect --session)")
    func appleAppRoundTrip() throws {
        let folder = Self.folder()
        let keys = folder + "/keys"
        #expect(try MdocVerifyCLI.run(["keygen", "--out", keys]).status == 0)
        let out = try Self.request("apple-app", in: folder)
        let app = try Self.json(out + "/app-request.json")
        #expect(app["merchantID"] as? String == "merchant.com.example" && (app["nonce"] as? String)?.count == 43)
        let wallet = folder + "/wallet"
        let simulated = try MdocVerifyCLI.run(["simulate", "apple-app", "--app-request", out + "/app-request.json",
                                               "--merchant-key", keys + "/merchant-private.pem", "--request", out + "/request.json",
                                               "--out", wallet])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let command = try #require(try Self.json(wallet + "/case.json")["verify"] as? String)
        #expect(command.contains("--session \(out)/session.json") && !command.contains("--nonce") && !command.contains("--request"))
        let verified = try Self.verifyCase(wallet)
        #expect(verified.status == 0, "\(verified.stdout) \(verified.stderr)")
        #expect(verified.stdout.hasPrefix("VERIFIED apple-app"))
        let inspected = try MdocVerifyCLI.run(["inspect", wallet + "/response.cbor", "--private-key", keys + "/merchant-private.pem",
                                               "--session", out + "/session.json"])
        #expect(inspected.status == 0, "\(inspected.stderr)")
        #expect(inspected.stdout.hasPrefix("decrypted: DeviceResponse"))
        // Another request's session (another nonce): the transcript differs, the device signature fails.
        let other = try Self.request("apple-app", in: Self.folder())
        let mismatch = try Self.verifyCase(wallet) { arguments in
            arguments.map { $0 == out + "/session.json" ? other + "/session.json" : $0 }
        }
        #expect(mismatch.status == 1, "\(mismatch.stdout)")
    }

    @Test("annex-c and openid4vp: inspect --session opens the envelope with the kept key")
    func inspectWithSession() throws {
        let folder = Self.folder()
        let out = try Self.request("annex-c", in: folder)
        let wallet = try Self.annexCAnswer(out, in: folder)
        let inspected = try MdocVerifyCLI.run(["inspect", wallet + "/response.txt", "--session", out + "/session.json"])
        #expect(inspected.status == 0, "\(inspected.stderr)")
        #expect(inspected.stdout.hasPrefix("decrypted: DeviceResponse"))
        let mixed = try MdocVerifyCLI.run(["inspect", wallet + "/response.txt", "--session", out + "/session.json", "--origin", Self.origin])
        #expect(mixed.status == 2 && mixed.stderr.contains("--origin is kept in the session"), "\(mixed.stderr)")
        let key = try MdocVerifyCLI.run(["inspect", wallet + "/response.txt", "--session", out + "/session.json",
                                         "--private-key", out + "/session.json"])
        #expect(key.status == 2 && key.stderr.contains("--private-key is kept in the session"), "\(key.stderr)")
    }

    @Test("a session that is not version 1, not this format's, not JSON, or incomplete is exit 2 naming the fix")
    func refusals() throws {
        let folder = Self.folder()
        let out = try Self.request("annex-c", in: folder)
        let wallet = try Self.annexCAnswer(out, in: folder)
        func verify(session: String, extra: [String] = []) throws -> Run {
            try Self.verifyCase(wallet) { arguments in
                arguments.map { $0 == out + "/session.json" ? session : $0 } + extra
            }
        }
        let document = try Self.json(out + "/session.json")
        func variant(_ change: (inout [String: Any]) -> Void) throws -> String {
            var copy = document
            change(&copy)
            let path = folder + "/variant-\(UUID().uuidString).json"
            try JSONSerialization.data(withJSONObject: copy).write(to: URL(fileURLWithPath: path))
            return path
        }
        #expect(try verify(session: out + "/session.json").status == 0)

        let newer = try verify(session: try variant { $0["version"] = 2 })
        #expect(newer.status == 2)
        #expect(newer.stderr.contains("is version 2; this mdocverify reads version 1"), "\(newer.stderr)")
        let boolean = try verify(session: try variant { $0["version"] = true })
        #expect(boolean.status == 2 && boolean.stderr.contains("\"version\" is not a number"), "\(boolean.stderr)")
        let other = try verify(session: try variant { $0["format"] = "openid4vp" })
        #expect(other.status == 2)
        #expect(other.stderr.contains("is for openid4vp: check it with `mdocverify verify openid4vp`"), "\(other.stderr)")
        let incomplete = try verify(session: try variant { $0["state"] = ["origin": Self.origin] })
        #expect(incomplete.status == 2)
        #expect(incomplete.stderr.contains("has no privateKey") && incomplete.stderr.contains("`mdocverify request annex-c`"), "\(incomplete.stderr)")
        let pem = try verify(session: wallet + "/iaca.pem")
        #expect(pem.status == 2 && pem.stderr.contains("is not a JSON object: pass the session.json that `mdocverify request annex-c` wrote"))
        // The key never reaches the terminal.
        let key = try #require((document["state"] as? [String: String])?["privateKey"])
        for run in [newer, other, incomplete, pem] {
            #expect(!run.stderr.contains(key.split(separator: "\n")[1]))
        }

        // The session keeps the request and the values: giving them again is refused unless they agree.
        let differentPolicy = try Self.write(#"{"documents":[{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"family_name":false}}}]}"#,
                                             folder + "/different.json")
        let differs = try verify(session: out + "/session.json", extra: ["--request", differentPolicy])
        #expect(differs.status == 2 && differs.stderr.contains("differs from the request the session keeps"), "\(differs.stderr)")
        #expect(try verify(session: out + "/session.json", extra: ["--request", out + "/request.json"]).status == 0)
        let doubled = try verify(session: out + "/session.json", extra: ["--origin", Self.origin])
        #expect(doubled.status == 2 && doubled.stderr.contains("--origin is kept in the session"), "\(doubled.stderr)")
        let neither = try MdocVerifyCLI.run(["verify", "annex-c", "--response", wallet + "/response.txt", "--trust", wallet + "/iaca.pem"])
        #expect(neither.status == 2 && neither.stderr.contains("pass --session with the session.json `request annex-c` wrote"), "\(neither.stderr)")
    }

    @Test("a session that never ends (/dev/zero) or a folder whose session.json links back to it: exit 2, no hang, no crash")
    func endlessAndLoopingSessions() throws {
        let folder = Self.folder()
        let out = try Self.request("annex-c", in: folder)
        let wallet = try Self.annexCAnswer(out, in: folder)
        let endless = try Self.verifyCase(wallet) { arguments in arguments.map { $0 == out + "/session.json" ? "/dev/zero" : $0 } }
        #expect(endless.status == 2 && endless.stderr.contains("is larger than"), "\(endless.stderr)")
        let loop = folder + "/loop"
        try FileManager.default.createDirectory(atPath: loop, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: loop + "/session.json", withDestinationPath: ".")
        let looping = try Self.verifyCase(wallet) { arguments in arguments.map { $0 == out + "/session.json" ? loop : $0 } }
        #expect(looping.status == 2 && looping.stderr.contains("is a folder, not a session.json"), "\(looping.stderr)")
        let inspected = try MdocVerifyCLI.run(["inspect", wallet + "/response.txt", "--session", loop])
        #expect(inspected.status == 2, "\(inspected.stderr)")
    }

    @Test("verify annex-c and inspect take data.json for --encryption-info, as simulate annex-c does")
    func dataJSONAsEncryptionInfo() throws {
        let folder = Self.folder()
        let out = try Self.request("annex-c", in: folder)
        let wallet = try Self.annexCAnswer(out, in: folder)
        let state = try #require(try Self.json(out + "/session.json")["state"] as? [String: String])
        let key = try Self.write(try #require(state["privateKey"]), folder + "/key.pem")
        let values = ["--encryption-info", out + "/data.json", "--origin", Self.origin, "--private-key", key]
        let verified = try MdocVerifyCLI.run(["verify", "annex-c", "--response", wallet + "/response.txt", "--trust", wallet + "/iaca.pem",
                                              "--request", out + "/request.json"] + values)
        #expect(verified.status == 0, "\(verified.stdout) \(verified.stderr)")
        let inspected = try MdocVerifyCLI.run(["inspect", wallet + "/response.txt"] + values)
        #expect(inspected.status == 0 && inspected.stdout.hasPrefix("decrypted: DeviceResponse"), "\(inspected.stderr)")
        let other = try Self.write(#"{"deviceRequest": "x"}"#, folder + "/other.json")
        let refused = try MdocVerifyCLI.run(["verify", "annex-c", "--response", wallet + "/response.txt", "--encryption-info", other,
                                             "--origin", Self.origin, "--private-key", key])
        #expect(refused.status == 2 && refused.stderr.contains("JSON without an \"encryptionInfo\" string"), "\(refused.stderr)")
    }

    @Test("what an earlier mdocverify kept (Annex C's separate files, an unversioned openid4vp session.json) is refused, naming the fix")
    func earlierSessionsRefused() throws {
        let folder = Self.folder()
        let out = try Self.request("annex-c", in: folder)
        let wallet = try Self.annexCAnswer(out, in: folder)
        let state = try #require(try Self.json(out + "/session.json")["state"] as? [String: String])
        let legacy = folder + "/legacy"
        try FileManager.default.createDirectory(atPath: legacy, withIntermediateDirectories: true)
        _ = try Self.write(try #require(state["privateKey"]), legacy + "/private-key.pem")
        _ = try Self.write(try #require(state["encryptionInfo"]), legacy + "/encryption-info.txt")
        _ = try Self.write(try #require(state["origin"]), legacy + "/origin.txt")
        let run = try Self.verifyCase(wallet) { arguments in arguments.map { $0 == out + "/session.json" ? legacy : $0 } }
        #expect(run.status == 2, "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.contains("is a folder without a session.json") && run.stderr.contains("create the request again"), "\(run.stderr)")
        #expect(!run.stderr.contains(try #require(state["encryptionInfo"])))

        let openID4VP = try Self.request("openid4vp", in: Self.folder())
        let kept = try #require(try Self.json(openID4VP + "/session.json")["state"])
        try JSONSerialization.data(withJSONObject: kept).write(to: URL(fileURLWithPath: openID4VP + "/session.json"))
        let unversioned = try MdocVerifyCLI.run(["verify", "openid4vp", "--response", wallet + "/response.txt",
                                                 "--session", openID4VP + "/session.json"])
        #expect(unversioned.status == 2)
        #expect(unversioned.stderr.contains("has no \"version\" (an earlier mdocverify wrote none)"), "\(unversioned.stderr)")
    }
}
