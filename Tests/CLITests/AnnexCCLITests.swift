import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import Testing
import TestSupport
import Verifier

/// `mdocverify request annex-c` and `mdocverify verify annex-c`, end to end with the MdocTesting wallet.
@Suite("mdocverify request annex-c / verify annex-c")
struct AnnexCCLITests {
    static let time = "2026-06-01T12:00:00Z"
    static let origin = "https://shop.example"
    static let requestJSON = #"{"documents":[{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"family_name":false,"age_over_21":true}}}]}"#

    static func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("mdocverify-annexc-\(UUID().uuidString)").path
    }

    static func read(_ directory: String, _ name: String) throws -> String {
        try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
    }

    /// A value of the kept state in `directory`'s session.json (privateKey, encryptionInfo, origin).
    static func kept(_ directory: String, _ key: String) throws -> String {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(read(directory, "session.json").utf8)) as? [String: Any])
        return try #require((object["state"] as? [String: String])?[key])
    }

    /// Runs `request annex-c` into a fresh directory and returns it.
    static func createRequest(extra: [String] = []) throws -> String {
        let out = temporaryDirectory()
        let request = try MdocVerifyCLITests.temporaryFile(Array(requestJSON.utf8))
        let run = try MdocVerifyCLITests.run(["request", "annex-c", "--origin", origin, "--request", request, "--out", out] + extra)
        #expect(run.status == 0, "\(run.stderr)")
        return out
    }

    /// The simulated wallet answers the request in `directory` from data.json alone; returns the response file
    /// (`{"response": …}`) and the trust anchor file.
    static func walletResponse(for directory: String) throws -> (response: String, trust: String) {
        let data = try #require(try JSONSerialization.jsonObject(with: Data(read(directory, "data.json").utf8)) as? [String: String])
        let encryptionInfo = try #require(data["encryptionInfo"])
        let deviceRequestText = try #require(data["deviceRequest"])
        let deviceRequest = try DeviceRequest(decoding: try #require(Base64URL.decode(deviceRequestText)))
        let asked = try #require(deviceRequest.docRequests.first?.itemsRequest)
        let at = VectorFiles.date(time)
        let pki = try TestPKI(seed: 21, at: at)
        var options = SimulationOptions(time: at)
        options.elements = asked.nameSpaces.flatMap { ns in ns.elements.map { ElementID(ns.name, $0.identifier) } }
        let transcript = SessionTranscript.annexC(encryptionInfo: encryptionInfo, origin: origin)
        let simulated = try MdocSimulator(pki: pki).simulate(.deviceResponse(transcript), options: options)
        let sealed = try AnnexCResponseBuilder.seal(deviceResponse: simulated.deviceResponse,
                                                    recipientKey: try AnnexCEncryptionInfo(base64URL: encryptionInfo).recipientPublicKey,
                                                    transcript: transcript)
        return (try MdocVerifyCLITests.temporaryFile(Array((#"{"response":""# + sealed + #""}"#).utf8)),
                try MdocVerifyCLITests.temporaryFile(Array(pki.iacaPEM.utf8)))
    }

    /// `verify annex-c` with the session `directory` keeps, or with its values as options when one is overridden.
    static func verifyArguments(_ directory: String, response: String, trust: String, origin: String? = nil,
                                encryptionInfo: String? = nil, extra: [String] = []) throws -> [String] {
        let values = origin == nil && encryptionInfo == nil ? ["--session", directory + "/session.json"] : [
            "--encryption-info", try encryptionInfo ?? kept(directory, "encryptionInfo"),
            "--origin", try origin ?? kept(directory, "origin"),
            "--private-key", try MdocVerifyCLITests.temporaryFile(Array(try kept(directory, "privateKey").utf8)),
            "--request", directory + "/request.json",
        ]
        return ["verify", "annex-c", "--response", response] + values + ["--trust", trust, "--at", time] + extra
    }

    @Test("request annex-c writes data.json and what the server keeps; the files are what verify annex-c takes")
    func requestFiles() throws {
        let out = try Self.createRequest()
        let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(names == ["data.json", "request.json", "session.json"])
        let data = try #require(try JSONSerialization.jsonObject(with: Data(Self.read(out, "data.json").utf8)) as? [String: String])
        #expect(Set(data.keys) == ["deviceRequest", "encryptionInfo"])
        #expect(data["encryptionInfo"] == (try Self.kept(out, "encryptionInfo")))
        #expect(try Self.kept(out, "origin") == Self.origin)
        let key = try PrivateKey(pemEncoded: try Self.kept(out, "privateKey"))
        #expect(try AnnexCEncryptionInfo(base64URL: try Self.kept(out, "encryptionInfo")).recipientPublicKey == key.publicKey)
        let permissions = try FileManager.default.attributesOfItem(atPath: out + "/session.json")[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        let kept = try JSONDecoder().decode(RequestPolicy.self, from: Data(Self.read(out, "request.json").utf8))
        #expect(kept == (try JSONDecoder().decode(RequestPolicy.self, from: Data(Self.requestJSON.utf8))))
    }

    @Test("request → wallet → verify annex-c: exit 0, text and --json (format annex-c)")
    func roundTrip() throws {
        let out = try Self.createRequest()
        let (response, trust) = try Self.walletResponse(for: out)
        let text = try MdocVerifyCLITests.run(try Self.verifyArguments(out, response: response, trust: trust))
        #expect(text.status == 0, "\(text.stdout) \(text.stderr)")
        #expect(text.stdout.hasPrefix("VERIFIED annex-c"))
        #expect(text.stdout.contains("age_over_21: true  [retain]"))
        let json = try MdocVerifyCLITests.run(try Self.verifyArguments(out, response: response, trust: trust, extra: ["--json"]))
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "annex-c" && object["verified"] as? Bool == true)
    }

    @Test("request annex-c --issuer-identifiers lists the trust's key identifiers in requestInfo (the production bundle by default)")
    func issuerIdentifiers() throws {
        func itemsRequest(_ out: String) throws -> ItemsRequest {
            let data = try #require(try JSONSerialization.jsonObject(with: Data(Self.read(out, "data.json").utf8)) as? [String: String])
            let text = try #require(data["deviceRequest"])
            let deviceRequest = try DeviceRequest(decoding: try #require(Base64URL.decode(text)))
            return try #require(deviceRequest.docRequests.first?.itemsRequest)
        }
        let pki = try TestPKI(seed: 21, at: VectorFiles.date(Self.time))
        let trust = try MdocVerifyCLITests.temporaryFile(Array(pki.iacaPEM.utf8))
        let pinned = try Self.createRequest(extra: ["--issuer-identifiers", "--trust", trust])
        #expect(try itemsRequest(pinned).issuerIdentifiers == [try #require(pki.iaca.subjectKeyIdentifier)])
        let bundle = try Self.createRequest(extra: ["--issuer-identifiers"])
        let production = try ProductionTrustBundle.trustStore()
        #expect(try itemsRequest(bundle).issuerIdentifiers == IssuerIdentifiers.offer(for: DocType.mDL, in: production))
        #expect(try itemsRequest(try Self.createRequest()).issuerIdentifiers.isEmpty)
        // The wallet's answer to the filtered request verifies as before.
        let (response, walletTrust) = try Self.walletResponse(for: pinned)
        #expect(try MdocVerifyCLITests.run(try Self.verifyArguments(pinned, response: response, trust: walletTrust)).status == 0)
    }

    @Test("verify annex-c rejects (exit 1) another origin or encryptionInfo with hpke.open_failed")
    func rejections() throws {
        let out = try Self.createRequest()
        let (response, trust) = try Self.walletResponse(for: out)
        let otherOrigin = try MdocVerifyCLITests.run(try Self.verifyArguments(out, response: response, trust: trust,
                                                                              origin: "https://shop.exampla", extra: ["--json"]))
        #expect(otherOrigin.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(otherOrigin.stdout.utf8)) as? [String: Any])
        #expect((object["errors"] as? [[String: String]])?.map { $0["code"] } == ["hpke.open_failed"])
        let info = try Self.kept(out, "encryptionInfo")
        let otherInfo = try MdocVerifyCLITests.run(try Self.verifyArguments(out, response: response, trust: trust, encryptionInfo: info + "A"))
        #expect(otherInfo.status == 1)
        #expect(otherInfo.stdout.contains("hpke.open_failed"))
        let garbage = try MdocVerifyCLITests.temporaryFile(Array(#"{"response": "not base64!"}"#.utf8))
        let malformed = try MdocVerifyCLITests.run(try Self.verifyArguments(out, response: garbage, trust: trust))
        #expect(malformed.status == 1)
        #expect(malformed.stdout.contains("input.malformed"))
    }

    @Test("request annex-c signs with --reader-cert/--reader-key: readerAuthAll (1.1) or readerAuth per document (1.0)")
    func signedRequest() throws {
        let reader = try TestReaderPKI(commonName: "CLI Reader")
        let (root, key) = (reader.root, reader.identity.key)
        let leaf = try #require(reader.identity.certificates.first)
        let certFile = try MdocVerifyCLITests.temporaryFile(Array(PEMText.certificate(leaf).utf8))
        let keyFile = try MdocVerifyCLITests.temporaryFile(Array(key.pkcs8PEM().utf8))
        for version in ["1.1", "1.0"] {
            let out = try Self.createRequest(extra: ["--reader-cert", certFile, "--reader-key", keyFile, "--device-request-version", version])
            let data = try #require(try JSONSerialization.jsonObject(with: Data(Self.read(out, "data.json").utf8)) as? [String: String])
            let deviceRequestText = try #require(data["deviceRequest"])
            let request = try DeviceRequest(decoding: try #require(Base64URL.decode(deviceRequestText)))
            #expect(request.version == version)
            let transcript = SessionTranscript.annexC(encryptionInfo: try Self.kept(out, "encryptionInfo"), origin: Self.origin)
            let (readerAuth, toBeSigned): ([UInt8]?, [UInt8])
            if version == "1.1" {
                (readerAuth, toBeSigned) = (request.readerAuthAll.first, ReaderAuthentication.allBytes(
                    transcript: transcript, itemsRequestBytes: request.docRequests.map(\.itemsRequestBytes), deviceRequestInfoBytes: nil))
            } else {
                (readerAuth, toBeSigned) = (request.docRequests.first?.readerAuth, ReaderAuthentication.bytes(
                    transcript: transcript, itemsRequestBytes: request.docRequests[0].itemsRequestBytes))
            }
            let verified = try ReaderAuthentication.verify(try #require(readerAuth), readerAuthenticationBytes: toBeSigned,
                                                           trustStore: TrustStore(anchors: [root]), at: VectorFiles.date(Self.time))
            #expect(verified == leaf)
        }
        // A key that is not the certificate's, or only one of the two options: exit 2.
        let otherKey = try MdocVerifyCLITests.temporaryFile(Array(try PrivateKey.generate(.p256).pkcs8PEM().utf8))
        let request = try MdocVerifyCLITests.temporaryFile(Array(Self.requestJSON.utf8))
        let mismatch = try MdocVerifyCLITests.run(["request", "annex-c", "--origin", Self.origin, "--request", request, "--out",
                                                   Self.temporaryDirectory(), "--reader-cert", certFile, "--reader-key", otherKey])
        #expect(mismatch.status == 2)
        #expect(mismatch.stderr.contains("does not belong"))
        let half = try MdocVerifyCLITests.run(["request", "annex-c", "--origin", Self.origin, "--request", request, "--out",
                                               Self.temporaryDirectory(), "--reader-cert", certFile])
        #expect(half.status == 2)
    }

    @Test("Exit 2: bad origin, unreadable request, existing files, unreadable private key for verify")
    func usage() throws {
        let request = try MdocVerifyCLITests.temporaryFile(Array(Self.requestJSON.utf8))
        let badOrigin = try MdocVerifyCLITests.run(["request", "annex-c", "--origin", "https://shop.example/", "--request", request,
                                                    "--out", Self.temporaryDirectory()])
        #expect(badOrigin.status == 2)
        #expect(badOrigin.stderr.contains("serialized web origin"))
        let noRequest = try MdocVerifyCLITests.run(["request", "annex-c", "--origin", Self.origin, "--request", "/nonexistent.json",
                                                    "--out", Self.temporaryDirectory()])
        #expect(noRequest.status == 2)
        let out = try Self.createRequest()
        let again = try MdocVerifyCLITests.run(["request", "annex-c", "--origin", Self.origin, "--request", request, "--out", out])
        #expect(again.status == 2)
        #expect(again.stderr.contains("not overwriting"))
        let (response, trust) = try Self.walletResponse(for: out)
        var arguments = try Self.verifyArguments(out, response: response, trust: trust, origin: Self.origin)
        if let index = arguments.firstIndex(of: "--private-key") { arguments[index + 1] = "/nonexistent/key.pem" }
        #expect(try MdocVerifyCLITests.run(arguments).status == 2)
    }
}
