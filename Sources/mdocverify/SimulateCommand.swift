import ArgumentParser
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import Verifier

/// `mdocverify simulate`: signed test responses from a test PKI, with named faults.
struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build a correctly signed test response (or one with deliberate faults) from a seeded test PKI.",
        discussion: """
            Writes the response, the test IACA to trust and case.json (inputs and the expected verdict), so that \
            `mdocverify verify` or your own server can be checked end to end. `--list-faults` lists the faults.
            """,
        subcommands: FormatCommands.simulateCommands
    )

    @Flag(name: .customLong("list-faults"), help: "List the faults with the error code each must produce.")
    var listFaults = false

    @Flag(help: "With --list-faults: print JSON.")
    var json = false

    func run() throws {
        guard listFaults else {
            let formats = Self.configuration.subcommands.map { $0._commandName }.joined(separator: ", ")
            throw ValidationError("name a format (\(formats)) or pass --list-faults")
        }
        print(json ? Self.faultsJSON() : Self.faultsTable())
    }

    static func codes(_ fault: Fault) -> [(ResponseFormat, String)] {
        ResponseFormat.allCases.filter { fault.formats.contains($0) }.map { format in
            (format, fault.expectedCode(format: format)?.rawValue ?? "verifies")
        }
    }

    static func faultsTable() -> String {
        let width = Fault.allCases.map(\.name.count).max() ?? 0
        var lines: [String] = []
        for fault in Fault.allCases {
            let perFormat = codes(fault)
            let distinct = Set(perFormat.map(\.1))
            let expected = distinct.count == 1
                ? "\(perFormat[0].1)  (\(perFormat.map(\.0.rawValue).joined(separator: ", ")))"
                : perFormat.map { "\($0.1) (\($0.0.rawValue))" }.joined(separator: ", ")
            lines.append(fault.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + expected)
            lines.append(String(repeating: " ", count: width + 2) + fault.summary)
        }
        return lines.joined(separator: "\n")
    }

    static func faultsJSON() -> String {
        let entries = JSONValue.array(Fault.allCases.map { fault in
            let expected = codes(fault).sorted { $0.0.rawValue < $1.0.rawValue }.map { format, code in
                (format.rawValue, code == "verifies" ? JSONValue.null : .string(code))
            }
            return .object([("description", .string(fault.summary)), ("expectedCode", .object(expected)), ("name", .string(fault.name))])
        })
        return entries.serialized(pretty: true)
    }

    struct AppleApp: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "apple-app",
            abstract: "An Apple Verify with Wallet in-app response (APPLE-HPKE-v1 envelope) encrypted to your merchant key."
        )

        @Option(name: .customLong("merchant-key"), help: "Merchant key PEM: the public key, or the private key (only its public part is used).")
        var merchantKey: String

        @Option(name: .customLong("app-request"), help: "app-request.json written by `request apple-app` (nonce, merchant and team IDs); instead of the three options below.")
        var appRequest: String?

        @Option(name: .customLong("merchant-id"), help: "Merchant identifier the server will use.")
        var merchantID: String?

        @Option(name: .customLong("team-id"), help: "Team ID the server will use.")
        var teamID: String?

        @Option(help: "The request nonce: base64url as verify-server returns it, or hex.")
        var nonce: String?

        @OptionGroup var document: SimulationArguments

        func run() throws {
            try runReportingExit {
                let (merchant, isPrivate) = try Self.publicKey(merchantKey)
                let (nonceText, merchantID, teamID) = try requestValues()
                let nonce = try InputFiles.nonce(nonceText, what: "--nonce")
                let request = AppleAppRequest(merchantKey: merchant, nonce: nonce.bytes, merchantID: merchantID, teamID: teamID)
                let built = try document.simulate(.appleApp(request))
                let files = try document.write(built, responseName: "response.cbor")
                // The server's session.json beside app-request.json, when `request apple-app` wrote both.
                let session = appRequest.map { URL(fileURLWithPath: $0).deletingLastPathComponent().appendingPathComponent(SessionFile.name).path }
                let values = session.map { FileManager.default.fileExists(atPath: $0) ? ["--session", $0] : nil } ?? nil
                let verify = document.verifyCommand(["apple-app", "--response", files.response,
                                                     "--private-key", isPrivate ? merchantKey : "MERCHANT_PRIVATE_KEY.pem"]
                                                    + (values ?? ["--merchant-id", merchantID, "--team-id", teamID]
                                                        + SimulationArguments.option("--nonce", nonce.text)),
                                                    built: built, files: files, sessionKeepsRequest: values != nil)
                try document.writeCase(built, files: files, verify: verify, extra: [
                    "merchantID": merchantID, "teamID": teamID, "nonce": nonce.text,
                    "pkRHash": Hex.encode(RecipientKeyRing.pkRHash(of: merchant)),
                ])
                return .verified
            }
        }

        /// The nonce, merchant ID and team ID: from --app-request, or from the options (never a mix).
        func requestValues() throws -> (nonce: String, merchantID: String, teamID: String) {
            guard let appRequest else {
                guard let nonce, let merchantID, let teamID else {
                    throw UsageFailure("pass --nonce, --merchant-id and --team-id (or --app-request with the app-request.json `request apple-app` wrote)")
                }
                return (nonce, merchantID, teamID)
            }
            let text = try InputFiles.readText(appRequest, what: "app request", maxBytes: SessionFile.maxBytes)
            guard let object = JSONValue.object(text, maxNodes: 10_000), let keptNonce = object["nonce"]?.string
            else { throw UsageFailure("\(appRequest) is not the app-request.json `request apple-app` writes ({\"nonce\", \"merchantID\", \"teamID\"})") }
            if self.nonce != nil { throw UsageFailure("--nonce is in \(appRequest); leave out --nonce") }
            return (keptNonce,
                    try SessionValues.one(merchantID, flag: "--merchant-id", kept: object["merchantID"]?.string, session: appRequest),
                    try SessionValues.one(teamID, flag: "--team-id", kept: object["teamID"]?.string, session: appRequest))
        }

        /// The merchant public key, and whether the file held the private key.
        static func publicKey(_ path: String) throws -> (PublicKey, Bool) {
            let text = try InputFiles.readText(path, what: "merchant key")
            if let key = try? PublicKey(pemEncoded: text) { return (key, false) }
            if let key = try? PrivateKey(pemEncoded: text) { return (key.publicKey, true) }
            throw UsageFailure("merchant key at \(path) is not a PEM public or private key")
        }
    }

    struct AnnexC: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "annex-c",
            abstract: "An ISO/IEC 18013-7 Annex C response (org-iso-mdoc) for a request's encryptionInfo and origin.",
            discussion: "Writes response.txt: the base64url string a page receives as DigitalCredential.data.response."
        )

        @Option(name: .customLong("encryption-info"), help: "The request's encryptionInfo (base64url), a file holding it, or the data.json `request annex-c` wrote.")
        var encryptionInfo: String

        @Option(help: "The origin of the requesting page, e.g. https://shop.example.")
        var origin: String

        @OptionGroup var document: SimulationArguments

        func run() throws {
            try runReportingExit {
                var info = encryptionInfo
                // The server's session (or an earlier request's key) when the encryptionInfo comes from a folder
                // `request annex-c` wrote.
                var kept: [String]?
                var privateKey = "RECIPIENT_PRIVATE_KEY.pem"
                if FileManager.default.fileExists(atPath: info) {
                    let folder = URL(fileURLWithPath: info).deletingLastPathComponent()
                    let session = folder.appendingPathComponent(SessionFile.name).path
                    let sibling = folder.appendingPathComponent("private-key.pem").path
                    if FileManager.default.fileExists(atPath: session) {
                        kept = ["--session", session]
                    } else if FileManager.default.fileExists(atPath: sibling) {
                        privateKey = sibling
                    }
                    info = try InputFiles.encryptionInfo(fromFile: info)
                }
                let built = try document.simulate(.annexCEncryptionInfo(info, origin: origin))
                let files = try document.write(built, responseName: "response.txt")
                let verify = document.verifyCommand(["annex-c", "--response", files.response]
                                                    + (kept ?? ["--encryption-info", info, "--origin", origin, "--private-key", privateKey]),
                                                    built: built, files: files, sessionKeepsRequest: kept != nil)
                try document.writeCase(built, files: files, verify: verify, extra: ["encryptionInfo": info, "origin": origin])
                return .verified
            }
        }
    }
}

extension Simulate {
    struct OpenID4VP: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "openid4vp",
            abstract: "A wallet's OpenID4VP answer over the Digital Credentials API to a request from `request openid4vp`.",
            discussion: "Reads dc-request.json ({protocol, data}, as the page passes it to navigator.credentials.get) and writes response.json: the {protocol, data} the page receives, for `verify openid4vp --response`."
        )

        @Option(name: .customLong("dc-request"), help: "dc-request.json written by `request openid4vp`.")
        var dcRequest: String

        @Option(help: "The origin of the requesting page (the browser gives it to the wallet), e.g. https://shop.example.")
        var origin: String

        @OptionGroup var document: SimulationArguments

        func run() throws {
            try runReportingExit {
                let text = try InputFiles.readText(dcRequest, what: "dc-request", maxBytes: 1 << 20)
                guard let object = JSONValue.object(text, maxNodes: 100_000), let protocolIdentifier = object["protocol"]?.string,
                      let data = object["data"], data.isObject
                else { throw UsageFailure("\(dcRequest) is not {\"protocol\", \"data\"} as `request openid4vp` writes it") }
                let dataText = data.serialized()
                let request: OpenID4VPRequest
                do {
                    request = try OpenID4VPRequest(protocolIdentifier: protocolIdentifier, data: dataText, origin: origin)
                } catch let error as SimulationError {
                    throw UsageFailure(error.description)
                }
                let built = try document.simulate(.openID4VP(request))
                let files = try document.write(built, responseName: "response.json")
                let session = URL(fileURLWithPath: dcRequest).deletingLastPathComponent().appendingPathComponent("session.json").path
                let verify = document.verifyCommand(["openid4vp", "--response", files.response, "--session", session], built: built, files: files,
                                                    sessionKeepsRequest: true)
                try document.writeCase(built, files: files, verify: verify, extra: ["origin": origin, "protocol": protocolIdentifier])
                return .verified
            }
        }
    }

    struct DeviceResponse: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "device-response",
            abstract: "A bare ISO/IEC 18013-5 DeviceResponse (deviceSignature) over a session transcript you give.",
            discussion: "Writes device-response.cbor, for `verify device-response --session-transcript` with the same transcript."
        )

        @Option(name: .customLong("session-transcript"), help: "The SessionTranscript (raw CBOR, or hex/base64 text; untagged or tag-24 bytes).")
        var sessionTranscript: String

        @OptionGroup var document: SimulationArguments

        func run() throws {
            try runReportingExit {
                let bytes = try InputFiles.cbor(sessionTranscript, what: "session transcript")
                let transcript: SessionTranscript
                do {
                    transcript = try SessionTranscript(encoded: bytes)
                } catch {
                    throw UsageFailure("\(sessionTranscript) is not a SessionTranscript (CBOR array or tag-24 bytes): \(error)")
                }
                let built = try document.simulate(.deviceResponse(transcript))
                let files = try document.write(built, responseName: "device-response.cbor")
                let verify = document.verifyCommand(["device-response", "--device-response", files.response,
                                                     "--session-transcript", sessionTranscript], built: built, files: files)
                try document.writeCase(built, files: files, verify: verify, extra: [:])
                return .verified
            }
        }
    }
}

/// Options shared by every simulated format: what the document holds and how it is broken.
struct SimulationArguments: ParsableArguments {
    @Option(help: "Document type: org.iso.18013.5.1.mDL (default) or org.iso.23220.photoid.1.")
    var doctype: String = DocType.mDL

    @Option(help: "Elements to disclose, namespace:identifier,… (default: all of the sample document).")
    var elements: String?

    @Option(help: "A request policy (request.json, as `request <format>` writes it): disclose exactly the elements it asks of --doctype, as a wallet does.")
    var request: String?

    @Option(name: .customLong("fault"), help: "A fault to apply (repeatable); see `mdocverify simulate --list-faults`.")
    var faults: [String] = []

    @Option(help: "Seed of the test PKI, device key and salts.")
    var seed: UInt64 = 1

    @Option(name: .customLong("issuer-curve"), help: "Curve of the IACA and Document Signer: P-256, P-384, P-521, brainpoolP256r1, brainpoolP320r1, brainpoolP384r1, brainpoolP512r1 or Ed25519.")
    var issuerCurve: String = Curve.p256.rawValue

    @Option(help: "Verification time the response is made for, RFC 3339 (default: now).")
    var at: String?

    @Option(name: .customLong("status-uri"), help: "URI of the status list the MSO's status names (written as status-list.cwt).")
    var statusURI = SimulationOptions.StatusReference().uri

    @Option(name: .customLong("status-index"), help: "The document's index in that status list.")
    var statusIndex = SimulationOptions.StatusReference().index

    @Flag(name: .customLong("no-status"), help: "Leave the status reference out of the MSO (no status-list.cwt).")
    var noStatus = false

    @Option(help: "Directory for the response, iaca.pem, document-signer.pem, iaca.crl, status-list.cwt and case.json (created if missing).")
    var out: String

    /// `name value` for a printed command line, or `name=value` when the value begins with `-` (a base64url nonce
    /// may), which the shell would otherwise hand over as an option.
    static func option(_ name: String, _ value: String) -> [String] {
        value.hasPrefix("-") ? ["\(name)=\(value)"] : [name, value]
    }

    struct Built {
        let response: SimulatedResponse
        let pki: TestPKI
        let curve: Curve
    }

    struct Files {
        let response: String
        let trust: String
        let crl: String
        /// The status list and identifier list tokens the MSO names (none without `status`).
        let statusLists: [String]
        /// Other issuers' IACAs the verifier trusts too (the `status-list-other-issuer` fault).
        let otherTrust: [String]

        /// `--crl`, the other trusted IACAs, and each `--status-list` with `--revocation hard` when there is a list,
        /// for the verify command.
        var revocation: [String] {
            ["--crl", crl] + otherTrust.flatMap { ["--trust", $0] } + statusLists.flatMap { ["--status-list", $0] }
                + (statusLists.isEmpty ? [] : ["--revocation", "hard"])
        }
    }

    func simulate(_ target: ResponseTarget) throws -> Built {
        let faultList = try faults.map { name in
            guard let fault = Fault(name: name) else {
                throw UsageFailure("unknown fault \(name); see `mdocverify simulate --list-faults`")
            }
            return fault
        }
        guard let curve = Curve(rawValue: issuerCurve), curve != .x25519 else {
            throw UsageFailure("--issuer-curve must be P-256, P-384, P-521, brainpoolP256r1, brainpoolP320r1, brainpoolP384r1, brainpoolP512r1 or Ed25519")
        }
        var options = SimulationOptions(time: try InputFiles.time(at), faults: faultList)
        options.docType = doctype
        options.statusList = noStatus ? nil : SimulationOptions.StatusReference(uri: statusURI, index: statusIndex)
        if let elements {
            guard let ids = ElementID.list(elements), !ids.isEmpty else {
                throw UsageFailure("--elements must be namespace:identifier,…")
            }
            options.elements = ids
        }
        if let request {
            guard elements == nil else { throw UsageFailure("pass --request or --elements, not both") }
            options.elements = try Self.requested(try InputFiles.request(request), docType: doctype, path: request)
        }
        do {
            let pki = try TestPKI(seed: seed, curve: curve, at: options.time)
            return Built(response: try MdocSimulator(pki: pki).simulate(target, options: options), pki: pki, curve: curve)
        } catch let error as SimulationError {
            throw UsageFailure(error.description)
        }
    }

    /// `mdocverify verify <format> …` for case.json: the format's own arguments, then the request (when the answer
    /// followed one and no session.json keeps it), the trust, the time and the revocation material.
    func verifyCommand(_ format: [String], built: Built, files: Files, sessionKeepsRequest: Bool = false) -> [String] {
        ["mdocverify", "verify"] + format + (sessionKeepsRequest ? [] : request.map { ["--request", $0] } ?? [])
            + ["--trust", files.trust, "--at", RFC3339.format(built.response.time)] + files.revocation
    }

    /// The elements `policy` asks of `docType`, as a wallet that shares exactly what was asked discloses them.
    static func requested(_ policy: RequestPolicy?, docType: String, path: String) throws -> [ElementID] {
        guard let document = policy?.documents.first(where: { $0.docType == docType }) else {
            throw UsageFailure("\(path) asks for no \(docType); pass --doctype with a docType it asks for")
        }
        let ids = document.nameSpaces.sorted { $0.key < $1.key }.flatMap { nameSpace, elements in
            elements.keys.sorted().map { ElementID(nameSpace, $0) }
        }
        guard !ids.isEmpty else { throw UsageFailure("\(path) asks for no element of \(docType)") }
        return ids
    }

    func write(_ built: Built, responseName: String) throws -> Files {
        try OutputFiles.createDirectory(out)
        let response = try OutputFiles.write(built.response.bytes, to: out, name: responseName)
        let trust = try OutputFiles.write(Array(built.pki.iacaPEM.utf8), to: out, name: "iaca.pem")
        // The signer too, for operators who pin document signers rather than the IACA.
        _ = try OutputFiles.write(Array(built.response.documentSigner.pemEncoded.utf8), to: out, name: "document-signer.pem")
        if let intermediate = built.response.intermediateCA {
            _ = try OutputFiles.write(Array(intermediate.pemEncoded.utf8), to: out, name: "intermediate-ca.pem")
        }
        // The IACA's CRL and the status list the MSO names, as a verifier would fetch them.
        let crl = try OutputFiles.write(Array(built.response.revocation.crl.pemEncoded.utf8), to: out, name: "iaca.crl")
        let revocation = built.response.revocation
        let statusLists = try revocation.tokens.sorted { $0.key < $1.key }.map { uri, token in
            try OutputFiles.write(token, to: out, name: uri == revocation.identifierListURI ? "identifier-list.cwt" : "status-list.cwt")
        }
        let otherTrust = try revocation.otherIssuerAnchors.enumerated().map { index, anchor in
            try OutputFiles.write(Array(PEMText.certificate(anchor).utf8), to: out, name: "other-issuer-iaca-\(index + 1).pem")
        }
        return Files(response: response, trust: trust, crl: crl, statusLists: statusLists, otherTrust: otherTrust)
    }

    /// case.json: the inputs and the verdict the verifier must reach; prints a summary.
    /// Writes case.json and prints what was written, what the verifier must answer and the `mdocverify verify` command
    /// (nil: only the verifier that published the request can verify the answer).
    func writeCase(_ built: Built, files: Files, verify: [String]?, extra: [String: String]) throws {
        let response = built.response
        let expected = response.expected
        let command = verify?.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
        func strings(_ list: [String]) -> JSONValue { .array(list.map(JSONValue.string)) }
        var members: [(String, JSONValue)] = [
            ("format", .string(response.format.rawValue)),
            ("docType", .string(response.docType)),
            ("elements", strings(response.disclosed.map(\.description))),
            ("faults", strings(response.faults.map(\.name))),
            ("seed", .int(seed)),
            ("issuerCurve", .string(built.curve.rawValue)),
            ("at", .string(RFC3339.format(response.time))),
            ("files", .object([("response", .string(files.response)), ("trust", .string(files.trust)),
                               ("revocation", strings([files.crl] + files.statusLists))])),
            ("expected", .object([
                ("verified", .bool(expected.isVerified)),
                ("code", expected.code.map { .string($0.rawValue) } ?? .null),
                ("codes", strings(expected.codes.map(\.rawValue).sorted())),
                ("description", .string(expected.description)),
            ])),
            ("verify", command.map(JSONValue.string) ?? .null),
        ]
        members += extra.filter { key, _ in !members.contains { $0.0 == key } }.map { ($0.key, .string($0.value)) }
        let sorted = JSONValue.object(members.sorted { $0.0 < $1.0 })
        try OutputFiles.write(sorted.serializedBytes(pretty: true) + Array("\n".utf8), to: out, name: "case.json")
        print("wrote \(files.response) (\(response.bytes.count) bytes), \(files.trust), case.json")
        print("expected: \(expected)")
        print("verify:   \(command ?? "by the verifier that published the request (its session is there)")")
    }
}
