import CryptoCore
import Foundation
import Mdoc
import MdocModel
import Testing
import TestSupport
import VerifyServer

/// The inspector: off by default (its routes answer 404 as if absent), only in test mode, a self-contained page
/// under a strict Content-Security-Policy, and an endpoint that verifies without creating or consuming a request.
@Suite("verify-server inspector")
struct InspectorTests {
    static var configuration: ServerConfiguration {
        var configuration = AppleSample.configuration()
        configuration.inspector = true
        return configuration
    }

    static func appleBody(_ envelope: [UInt8] = AppleSample.envelope, requestId: String? = nil) -> String {
        var fields = [#""format":"apple-app""#, #""response":"\#(Hex.encode(envelope))""#]
        if let requestId {
            fields.append(#""requestId":"\#(requestId)""#)
        } else {
            fields += [#""merchantId":"\#(AppleSampleVector.merchantID)""#, #""teamId":"\#(AppleSampleVector.teamID)""#,
                       #""nonce":"\#(Data(AppleSampleVector.nonce).base64EncodedString())""#]
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    @Test("off by default: the page, its files and the endpoint answer 404")
    func offByDefault() async throws {
        try await ServerFixture.withServer { server in
            for path in ["/inspect", "/inspect/inspector.js", "/inspect/inspector.css"] {
                let status = try await server.client.get(path).status
                #expect(status == 404, "\(path)")
            }
            let inspect = try await server.client.post("/v1/inspect", json: Self.appleBody())
            #expect(inspect.status == 404)
        }
    }

    @Test("the inspector needs test mode")
    func needsTestMode() {
        var configuration = ServerConfiguration()
        configuration.inspector = true
        #expect(configuration.problems.contains { $0.hasPrefix("inspector") && $0.contains("test mode") })
    }

    @Test("the page is self-contained, under a strict Content-Security-Policy")
    func page() async throws {
        try await ServerFixture.withServer(Self.configuration) { server in
            let page = try await server.client.get("/inspect")
            #expect(page.status == 200)
            #expect(page.header("content-type") == "text/html; charset=utf-8")
            let policy = try #require(page.header("content-security-policy"))
            #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'") && !policy.contains("unsafe"))
            #expect(page.text.contains(#"src="/inspect/inspector.js""#))
            for path in ["/inspect", "/inspect/inspector.js", "/inspect/inspector.css"] {
                let file = try await server.client.get(path)
                #expect(file.status == 200 && file.header("x-content-type-options") == "nosniff")
                // No external scripts, fonts, styles or images.
                #expect(!file.text.contains("http://") && !file.text.contains("https://"), "\(path) references an outside URL")
            }
            #expect(!page.text.contains("<script>") && !page.text.contains("<style") && !page.text.contains(" style="))
        }
    }

    @Test("Apple's sample: the report and the decrypted DeviceResponse as the tree `mdocverify inspect` prints")
    func appleSample() async throws {
        try await ServerFixture.withServer(Self.configuration) { server in
            let answer = try await server.client.post("/v1/inspect", json: Self.appleBody())
            #expect(answer.status == 200, "\(answer.text)")
            let object = try jsonObject(answer)
            let report = try #require(object["report"] as? [String: Any])
            #expect(report["verified"] as? Bool == true)
            let cbor = try #require(object["cbor"] as? [String: Any])
            #expect(cbor["summary"] as? String == "DeviceResponse")
            #expect(answer.text.contains(#"MobileSecurityObject"#), "the MSO inside issuerAuth's tag 24 is opened")
            #expect(answer.text.contains(#""summary":"family_name = "#), "an IssuerSignedItem is one line")
        }
    }

    @Test("a tampered response: rejected with its code, no CBOR (nothing was decrypted)")
    func tampered() async throws {
        var tampered = AppleSample.envelope
        tampered[tampered.count - 20] ^= 0x01
        let envelope = tampered
        try await ServerFixture.withServer(Self.configuration) { server in
            let answer = try await server.client.post("/v1/inspect", json: Self.appleBody(envelope))
            #expect(answer.status == 200)
            let object = try jsonObject(answer)
            let report = try #require(object["report"] as? [String: Any])
            #expect(report["verified"] as? Bool == false)
            #expect((report["errors"] as? [[String: Any]])?.first?["code"] as? String == "hpke.open_failed")
            #expect(object["cbor"] is NSNull)
        }
    }

    @Test("a requestId is read, never consumed: /v1/verify still accepts the request afterwards")
    func doesNotConsume() async throws {
        try await ServerFixture.withServer(Self.configuration) { server in
            let request = AppleSample.request()
            try await server.store.insert(request)
            let inspected = try await server.client.post("/v1/inspect", json: Self.appleBody(requestId: request.id))
            #expect(inspected.status == 200, "\(inspected.text)")
            let report = try jsonObject(inspected)["report"] as? [String: Any]
            #expect(report?["verified"] as? Bool == true)
            let verified = try await server.client.post("/v1/verify", json: AppleSample.verifyBody(request.id))
            #expect(verified.status == 200, "\(verified.text)")
            let unknown = try await server.client.post("/v1/inspect", json: Self.appleBody(requestId: "no-such-request"))
            let unknownCode = try errorCode(unknown)
            #expect(unknown.status == 404 && unknownCode == "nonce.unknown")
        }
    }

    @Test("a bare DeviceResponse with its transcript (ISO Annex D); a missing transcript is a rejected report")
    func deviceResponse() async throws {
        try await ServerFixture.withServer(Self.configuration) { server in
            let body = #"{"format":"device-response","response":"\#(Hex.encode(AnnexDVector.deviceResponse))","sessionTranscript":"\#(Hex.encode(AnnexDVector.sessionTranscriptBytes))"}"#
            let answer = try await server.client.post("/v1/inspect", json: body)
            #expect(answer.status == 200, "\(answer.text)")
            let object = try jsonObject(answer)
            #expect((object["cbor"] as? [String: Any])?["summary"] as? String == "DeviceResponse")
            // The server trusts Apple's sample root only: Annex D's issuer is untrusted, and no element is released.
            let report = try #require(object["report"] as? [String: Any])
            #expect(report["verified"] as? Bool == false && (report["documents"] as? [Any])?.isEmpty == true)
            // What is wrong with the paste is a rejected report the page shows like any other; a body that is not
            // the documented JSON is 400.
            let missing = try await server.client.post("/v1/inspect", json: #"{"format":"device-response","response":"a0"}"#)
            let missingReport = try jsonObject(missing)["report"] as? [String: Any]
            #expect(missing.status == 200 && (missingReport?["errors"] as? [[String: Any]])?.first?["code"] as? String == "input.malformed")
            let shape = try await server.client.post("/v1/inspect", json: #"{"format":"device-response"}"#)
            let shapeCode = try errorCode(shape)
            #expect(shape.status == 400 && shapeCode == "input.malformed")
        }
    }

    /// Annex D's response with its transcript and, when given, `readerPrivateKey` (a JSON string, escaped here).
    static func annexDBody(readerPrivateKey: String?) -> String {
        var body = #"{"format":"device-response","response":"\#(Hex.encode(AnnexDVector.deviceResponse))","sessionTranscript":"\#(Hex.encode(AnnexDVector.sessionTranscriptBytes))""#
        if let readerPrivateKey { body += #","readerPrivateKey":"\#(readerPrivateKey.replacingOccurrences(of: "\n", with: "\\n"))""# }
        return body + "}"
    }

    static func check(_ report: [String: Any], _ id: String) -> [String: Any]? {
        (report["checks"] as? [[String: Any]])?.first { $0["id"] as? String == id }
    }

    @Test("the reader key checks Annex D's deviceMac: valid with the vector's key, device.mac_invalid with another, device.auth_missing without")
    func readerKey() async throws {
        let pem = try String(contentsOf: VectorFiles.url("TestVectors/iso18013-5/annex-d/ereader-private-key.pem"), encoding: .utf8)
        let other = try PrivateKey.generate(.p256).pkcs8PEM()
        try await ServerFixture.withServer(Self.configuration) { server in
            let valid = try #require(try jsonObject(try await server.client.post("/v1/inspect", json: Self.annexDBody(readerPrivateKey: pem)))["report"] as? [String: Any])
            #expect(Self.check(valid, "device.authentication")?["status"] as? String == "pass", "\(valid)")
            #expect((Self.check(valid, "device.authentication")?["detail"] as? String)?.contains("deviceMac") == true)
            let wrong = try #require(try jsonObject(try await server.client.post("/v1/inspect", json: Self.annexDBody(readerPrivateKey: other)))["report"] as? [String: Any])
            #expect((wrong["errors"] as? [[String: Any]])?.contains { $0["code"] as? String == "device.mac_invalid" } == true, "\(wrong)")
            let none = try #require(try jsonObject(try await server.client.post("/v1/inspect", json: Self.annexDBody(readerPrivateKey: nil)))["report"] as? [String: Any])
            #expect((none["errors"] as? [[String: Any]])?.contains { $0["code"] as? String == "device.auth_missing" } == true, "\(none)")
            // Not a key: a rejected report saying what to give, which never echoes what was pasted.
            let garbage = "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LXRoYXQtaXMtbm90LWEta2V5\n-----END PRIVATE KEY-----"
            let refused = try await server.client.post("/v1/inspect", json: Self.annexDBody(readerPrivateKey: garbage))
            let refusedReport = try #require(try jsonObject(refused)["report"] as? [String: Any])
            #expect(refused.status == 200 && (refusedReport["errors"] as? [[String: Any]])?.first?["code"] as? String == "input.malformed")
            #expect(refused.text.contains("readerPrivateKey is not a PEM private key") && !refused.text.contains("c2VjcmV0LXRoYXQtaXMtbm90LWEta2V5"))
        }
    }

    @Test("the reader key is never logged")
    func readerKeyNotLogged() async throws {
        let pem = try String(contentsOf: VectorFiles.url("TestVectors/iso18013-5/annex-d/ereader-private-key.pem"), encoding: .utf8)
        let logs = CapturedLogs()
        try await ServerFixture.withServer(Self.configuration, logger: logs.logger) { server in
            _ = try await server.client.post("/v1/inspect", json: Self.annexDBody(readerPrivateKey: pem))
        }
        let keyLine = try #require(pem.split(separator: "\n").dropFirst().first)
        #expect(logs.all.contains("inspection") && !logs.all.contains(keyLine))
    }

    @Test("the page has a reader-key field and a sample button whose samples are the test vectors")
    func sampleAndReaderKeyOnThePage() async throws {
        let script = try String(contentsOf: VectorFiles.url("Sources/VerifyServer/Inspector/inspector.js"), encoding: .utf8)
        func literal(_ text: String) -> String {
            "\"" + text.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "\n", with: "\\n") + "\""
        }
        let annexD = "TestVectors/iso18013-5/annex-d/"
        for file in [annexD + "device_response.hex", annexD + "session_transcript_bytes.hex", annexD + "ereader-private-key.pem",
                     "TestVectors/apple/in-app-sample/hpke_envelope.cbor.hex"] {
            #expect(script.contains(literal(try String(contentsOf: VectorFiles.url(file), encoding: .utf8))),
                    "inspector.js's sample is not \(file): copy it again")
        }
        #expect(script.contains(literal(Hex.encode(AppleSampleVector.nonce))))
        try await ServerFixture.withServer(Self.configuration) { server in
            let page = try await server.client.get("/inspect").text
            #expect(page.contains(#"id="readerPrivateKey""#) && page.contains(#"id="sample""#) && page.contains("Load sample"))
            #expect(try await server.client.get("/inspect/inspector.js").text == script)
        }
    }
}
