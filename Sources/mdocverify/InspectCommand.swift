import ArgumentParser
import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import Verifier

/// `mdocverify inspect`: what a response holds, for people. An indented tree by default (`--json` for machines,
/// `--diagnostic` for RFC 8949 notation on one line); with the request's key and values it opens Apple, Annex C and
/// OpenID4VP envelopes first and shows the DeviceResponse inside. No verdict: nothing shown here has been verified.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what a response holds: an indented tree of its CBOR with the mdoc structures named and decoded (MSO, COSE headers, certificates).",
        discussion: """
            Plain CBOR (raw, hex or base64) is shown as it is. To see inside an encrypted response, give what opens it: \
            the session.json `request <format>` wrote (--session; Apple in-app also --private-key, the merchant key), or \
            the values: Apple in-app: --private-key --merchant-id --team-id --nonce (and --allow-test-key for Apple's \
            test key); Annex C: --private-key --encryption-info --origin. Nothing shown is verified.
            """
    )

    @Argument(help: "The response or any CBOR: raw bytes, or hex / base64 / base64url text (Annex C and OpenID4VP: the text the page received).")
    var path: String

    @Flag(help: "Print the tree as JSON ({label, summary, children}).")
    var json = false

    @Flag(help: "Print RFC 8949 diagnostic notation on one line instead (tag-24 contents expanded).")
    var diagnostic = false

    @Option(name: .customLong("private-key"), help: "The recipient private key (PEM) that opens an Apple or Annex C envelope.")
    var privateKey: String?

    @Option(name: .customLong("merchant-id"), help: "Apple in-app: the merchant identifier.")
    var merchantID: String?

    @Option(name: .customLong("team-id"), help: "Apple in-app: the team identifier.")
    var teamID: String?

    @Option(help: "Apple in-app: the request nonce (hex or base64url).")
    var nonce: String?

    @Flag(name: .customLong("allow-test-key"), help: "Apple in-app: accept Apple's published test key (sample, Simulator).")
    var allowTestKey = false

    @Option(name: .customLong("encryption-info"), help: "Annex C: the request's encryptionInfo, or the file holding it.")
    var encryptionInfo: String?

    @Option(help: "Annex C: the origin of the requesting page.")
    var origin: String?

    @Option(help: "session.json written by `request annex-c`, `request apple-app` or `request openid4vp`.")
    var session: String?

    func run() throws {
        try runReportingExit {
            var trees: [InspectNode] = []
            if let opened = try openEnvelope() {
                trees.append(contentsOf: opened)
            } else {
                let bytes = InputFiles.decodeResponse(try InputFiles.read(path, what: "input", maxBytes: InputFiles.maxResponseFileBytes))
                let item: CBORItem
                do {
                    item = try CBORDecoder.decode(bytes)
                } catch {
                    FileHandle.standardError.write(Data((TerminalText.escaped("not well-formed CBOR: \(error)") + "\n").utf8))
                    return .rejected
                }
                if diagnostic {
                    // Texts come out quoted with their controls escaped; the line is escaped once more for the terminal.
                    print(TerminalText.escaped(item.diagnostic(expandEmbedded: true)))
                    return .verified
                }
                trees.append(InspectTree.node(item, label: ""))
            }
            if json {
                print(JSONValue.array(trees.map(\.json)).serialized(pretty: true))
            } else {
                print(trees.flatMap { $0.lines() }.joined(separator: "\n"))
            }
            return .verified
        }
    }

    /// Opens an Apple in-app envelope with the merchant key at `privateKey`.
    private func openApple(privateKey: String, session: AppleAppSession, inspection: PipelineInspection) throws -> VerificationReport {
        let bytes = try InputFiles.cbor(path, what: "response", maxBytes: InputFiles.maxResponseFileBytes)
        let configuration = VerifierConfiguration(trustStore: TrustStore(anchors: []), testMode: allowTestKey)
        let verifier: AppleAppVerifier
        do {
            verifier = try AppleAppVerifier(configuration: configuration, keys: [try InputFiles.privateKey(privateKey)]).inspecting(inspection)
        } catch let error as VerificationError {
            throw UsageFailure("\(error.code.rawValue): \(error.message)" + (error.code == .envelopeTestKey ? "; pass --allow-test-key" : ""))
        }
        return verifier.verify(encryptedData: bytes, session: session, at: Date())
    }

    /// The registered flow of `format` in `environment`; nil when the environment cannot serve it.
    private func flow(_ format: VerificationReport.Format, _ environment: FlowEnvironment,
                      inspection: PipelineInspection) throws -> (any RequestFlow)? {
        do {
            return try FormatRegistry.flows(environment, inspection: inspection).first { $0.format == format }
        } catch {
            throw UsageFailure("\(error.code.rawValue): \(error.message)" + (error.code == .envelopeTestKey ? "; pass --allow-test-key" : ""))
        }
    }

    /// Opens the envelope as `verify-server` would: through the session's format's flow over its kept state, with the
    /// merchant key and identifiers for a format that needs them (Apple in-app). The verifier trusts nothing.
    private func openKept(_ session: String, inspection: PipelineInspection) throws -> VerificationReport {
        let kept = try SessionFile.read(session, expected: nil)
        func value(_ option: String?, _ flag: String, _ keptValue: String?) throws -> String {
            option == nil && keptValue == nil ? "" : try SessionValues.one(option, flag: flag, kept: keptValue, session: session)
        }
        var environment = FlowEnvironment(
            configuration: VerifierConfiguration(trustStore: TrustStore(anchors: []), testMode: allowTestKey), recipientKeys: [],
            merchantID: try value(merchantID, "--merchant-id", kept.merchantID), teamID: try value(teamID, "--team-id", kept.teamID))
        // A format whose flow is built without a decryption key keeps what opens its answer in the session (the
        // recipient key it made): `--private-key` is then not given again; the merchant key of Apple in-app is.
        let keepsKey = try flow(kept.format, environment, inspection: inspection) != nil
        for (flag, value) in [("--nonce", nonce), ("--encryption-info", encryptionInfo), ("--origin", origin),
                              ("--private-key", keepsKey ? privateKey : nil)] where value != nil {
            throw UsageFailure("\(flag) is kept in the session (\(session)); leave out \(flag)")
        }
        environment.recipientKeys = try privateKey.map { [try InputFiles.privateKey($0)] } ?? []
        guard let flow = try flow(kept.format, environment, inspection: inspection) else {
            throw UsageFailure("a \(kept.format.rawValue) session has no request flow to open it with"
                               + (keepsKey ? "" : ": pass the key that decrypts it with --private-key"))
        }
        // A binary answer's flow takes base64 (the file may be raw, hex or base64).
        let response = kept.format.descriptor?.wire.binary == true
            ? Data(try InputFiles.cbor(path, what: "response", maxBytes: InputFiles.maxResponseFileBytes)).base64EncodedString()
            : try InputFiles.readText(path, what: "response", maxBytes: InputFiles.maxResponseFileBytes)
        return flow.verify(response: response, state: kept.state, policy: nil, at: Date())
    }

    /// A verifier that only opens envelopes (it trusts nothing) and hands what it opens to `inspection`.
    private static func opener(_ inspection: PipelineInspection) -> ResponseVerifier {
        ResponseVerifier(configuration: VerifierConfiguration(trustStore: TrustStore(anchors: []))).inspecting(inspection)
    }

    /// The DeviceResponses inside an envelope, opened with the options given (nil when none were given). The
    /// verifier runs only to open the envelope; its verdict is not shown, and a failure to open is reported as such.
    private func openEnvelope() throws -> [InspectNode]? {
        let inspection = PipelineInspection()
        let report: VerificationReport
        if let session {
            report = try openKept(session, inspection: inspection)
        } else if let encryptionInfo {
            guard let privateKey, let origin else { throw UsageFailure("Annex C needs --private-key, --encryption-info and --origin") }
            var info = encryptionInfo
            if FileManager.default.fileExists(atPath: info) {
                info = try InputFiles.encryptionInfo(fromFile: info)
            }
            let text = try InputFiles.readText(path, what: "response", maxBytes: InputFiles.maxResponseFileBytes)
            let annexSession = AnnexCSession(privateKey: try InputFiles.privateKey(privateKey), encryptionInfo: info, origin: origin, request: nil)
            report = Self.opener(inspection).verify(response: text, session: annexSession, at: Date())
        } else if let merchantID {
            guard let privateKey, let teamID, let nonce else {
                throw UsageFailure("Apple in-app needs --private-key, --merchant-id, --team-id and --nonce")
            }
            let appleSession = AppleAppSession(nonce: try InputFiles.nonce(nonce, what: "--nonce").bytes, merchantID: merchantID, teamID: teamID)
            report = try openApple(privateKey: privateKey, session: appleSession, inspection: inspection)
        } else {
            return nil
        }
        let opened = inspection.deviceResponses
        guard !opened.isEmpty else {
            let reason = report.errors.first.map { "\($0.code.rawValue): \($0.message)" } ?? "no DeviceResponse inside"
            throw UsageFailure("could not open the envelope (\(reason)); check the key and the request's values")
        }
        return opened.enumerated().map { index, bytes in
            guard let item = try? CBORDecoder.decode(bytes) else {
                return InspectNode(label: "DeviceResponse \(index + 1)", summary: "not well-formed CBOR (\(bytes.count) bytes)")
            }
            var node = InspectTree.node(item, label: opened.count == 1 ? "decrypted" : "decrypted \(index + 1)")
            node.summary += " (\(bytes.count) bytes; not verified)"
            return node
        }
    }
}
