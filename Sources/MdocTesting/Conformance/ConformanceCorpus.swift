import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import Verifier

/// The conformance corpus: every case for every format the kit simulates (`KitFormat.all`), at one fixed
/// verification time and seed, and the plain files each case is run from.
///
/// The manifest (`manifest()`) depends only on the time, the seed and the catalogue, so regenerating it gives the same
/// text. The files' bytes do not repeat between runs (ECDSA signatures and HPKE/JWE ephemeral keys are random); their
/// keys, names, values and verdicts do.
public struct ConformanceCorpus: Sendable {
    /// The verification time of the committed corpus: 2026-06-01T12:00:00Z.
    public static let defaultTime = Date(timeIntervalSince1970: 1_780_315_200)
    /// The seed of the committed corpus's test PKI, keys and request values.
    public static let defaultSeed: UInt64 = 38
    /// The version of the manifest layout.
    public static let manifestVersion = 1
    /// The environment variable that names the case folder for a command under test.
    public static let caseDirectoryVariable = "MDOC_CONFORMANCE_CASE_DIR"
    /// The environment variable that names the case id for a command under test.
    public static let caseIDVariable = "MDOC_CONFORMANCE_CASE_ID"

    /// The verification time every case is made for.
    public let time: Date
    /// The seed of the PKI, the device keys and the request values.
    public let seed: UInt64
    /// The cases, format by format in registry order.
    public let cases: [ConformanceCase]
    /// The formats the cases are made in and their requests answered through.
    package let registry: KitRegistry

    /// The corpus for `time` (rounded down to whole seconds) and `seed`; `formats` limits it (nil: every format).
    public init(time: Date = ConformanceCorpus.defaultTime, seed: UInt64 = ConformanceCorpus.defaultSeed,
                formats: [ResponseFormat]? = nil) {
        self.init(time: time, seed: seed, formats: formats, registry: .standard)
    }

    /// The corpus of `registry`'s formats (a test may register one of its own).
    package init(time: Date = ConformanceCorpus.defaultTime, seed: UInt64 = ConformanceCorpus.defaultSeed, formats: [ResponseFormat]? = nil,
                 registry: KitRegistry) {
        self.time = Date(timeIntervalSince1970: time.timeIntervalSince1970.rounded(.down))
        self.seed = seed
        self.registry = registry
        cases = registry.kits.filter { formats?.contains($0.format) ?? true }.flatMap { ConformanceCatalog.cases(for: $0, in: registry) }
    }

    /// A case's files, ready to write into its folder.
    public struct BuiltCase: Sendable {
        /// The case.
        public let `case`: ConformanceCase
        /// File name → contents; `case.json` (the manifest entry) among them.
        public let files: [String: [UInt8]]
        /// The response as a client posts it to a relying party's server (see `SimulatedResponse.postedText`).
        public let postedText: String
        /// The built response.
        public let response: SimulatedResponse
    }

    /// What every case of one build shares: the PKI (one IACA for the whole corpus) and each format's seeded request.
    public struct Material: Sendable {
        package let pki: TestPKI
        let requests: [ResponseFormat: SimulatedRequest]
        /// The IACAs of the cases that chain elsewhere (other curves, an expired IACA), by issuer.
        let issuers: [Recipe.Issuer: TestPKI]
        /// What a several-roots trust file lists before the issuing IACA: the P-384 IACA and another P-256 IACA with
        /// the same subject as the corpus's.
        let otherRoots: [Certificate]
        /// The key a deviceMac case gives as another reader's.
        let otherReaderKey: PrivateKey

        /// The IACA every case's Document Signer chains to, PEM.
        public var iacaPEM: String { pki.iacaPEM }

        func pki(for issuer: Recipe.Issuer) -> TestPKI { issuers[issuer] ?? pki }
    }

    /// The PKI and seeded requests the cases are built from; build it once for many `build(_:material:)` calls.
    public func material() throws -> Material {
        let pki = try TestPKI(seed: seed, curve: .p256, at: time)
        let configuration = VerifierConfiguration(trustStore: pki.trustStore)
        var requests: [ResponseFormat: SimulatedRequest] = [:]
        for kit in registry.kits {
            requests[kit.format] = try SimulatedRequest(kit.format, seed: seed, pki: pki, configuration: configuration, registry: registry)
        }
        var issuers: [Recipe.Issuer: TestPKI] = [:]
        for curve in Recipe.Issuer.otherCurves { issuers[.curve(curve)] = try TestPKI(seed: seed, curve: curve, at: time) }
        let today = TestPKI.startOfDay(time)
        issuers[.expiredAnchor] = try TestPKI(seed: seed &+ 1, curve: .p256, at: time,
                                              iacaValidity: DateInterval(start: today - 1_095 * 86_400, end: today - 86_400))
        let sameSubject = try TestPKI(seed: seed &+ 2, curve: .p256, at: time).iaca
        return Material(pki: pki, requests: requests, issuers: issuers, otherRoots: [issuers[.curve(.p384)]?.iaca, sameSubject].compactMap { $0 },
                        otherReaderKey: try pki.deviceKey(label: "other-reader"))
    }

    /// Builds `case`'s response and files from `material` (nil: a fresh one).
    public func build(_ testCase: ConformanceCase, material: Material? = nil) throws -> BuiltCase {
        let material = try material ?? self.material()
        guard let request = material.requests[testCase.format] else {
            throw SimulationError.invalidOption("the kit cannot simulate \(testCase.format.rawValue)")
        }
        let recipe = testCase.recipe
        let response = try answer(testCase, to: request.target, material: material)

        var files: [String: [UInt8]] = [:]
        let inputs = inputs(testCase)
        files[inputs.response] = response.bytes
        let issuing = material.pki(for: recipe.issuer).iaca
        let roots = (recipe.severalRoots ? material.otherRoots : []) + [issuing]
        files["iaca.pem"] = Array(roots.map(PEMText.certificate).joined().utf8)
        if let file = inputs.readerKey, let key = recipe.deviceMac == .otherReaderKey ? material.otherReaderKey : response.readerKey {
            files[file] = Array(key.pkcs8PEM().utf8)
        }
        for anchor in response.revocation.otherIssuerAnchors {
            files["other-issuer-iaca.pem"] = Array(PEMText.certificate(anchor).utf8)
        }
        if testCase.requires.contains(.revocation) {
            files["iaca.crl"] = Array(response.revocation.crl.pemEncoded.utf8)
            for (uri, token) in response.revocation.tokens {
                files[uri == response.revocation.identifierListURI ? "identifier-list.cwt" : "status-list.cwt"] = token
            }
        }
        if let policy = response.request { files["request.json"] = Array((policy.json.serialized(pretty: true) + "\n").utf8) }
        if let key = registry.kit(request.format)?.corpus.privateKey(request) { files[inputs.privateKey ?? "private-key.pem"] = Array(key.pkcs8PEM().utf8) }
        if let state = request.state {
            files["session.json"] = SessionJSON.bytes(format: testCase.format.rawValue, state: state, request: response.request,
                                                       extra: registry.kit(testCase.format)?.corpus.sessionValues(request.environment) ?? [])
        } else {
            files["session-transcript.cbor"] = request.target.transcript.bytes
        }
        let listed = Set(inputs.allFiles)
        guard Set(files.keys) == listed else {
            throw SimulationError.invalidOption("case \(testCase.id): built files \(files.keys.sorted()) differ from the manifest's \(listed.sorted())")
        }
        files["case.json"] = Array((entry(testCase, material: material).serialized(pretty: true) + "\n").utf8)
        return BuiltCase(case: testCase, files: files, postedText: response.postedText, response: response)
    }

    /// Builds the case's response as a wallet answering `target`: the corpus's own seeded request, or a request a
    /// relying party under test made (its nonce, encryptionInfo or OpenID4VP request), with the case's faults,
    /// disclosure, content and transcript.
    public func answer(_ testCase: ConformanceCase, to target: ResponseTarget, material: Material) throws -> SimulatedResponse {
        let recipe = testCase.recipe
        var options = SimulationOptions(time: time, faults: recipe.faults)
        options.x5chain = recipe.x5chain
        options.issuerAlgorithm = recipe.issuerAlgorithm
        if recipe.deviceMac != nil { options.deviceAuthentication = .mac }
        options.docType = recipe.docType
        options.elements = recipe.elements
        options.request = recipe.request
        options.statusList = recipe.statusList ? SimulationOptions.StatusReference() : nil
        if !recipe.contentOverrides.isEmpty {
            guard var content = SampleContent.elements(for: recipe.docType, at: time) else {
                throw SimulationError.invalidOption("no sample content for \(recipe.docType)")
            }
            for index in content.indices {
                if let value = recipe.contentOverrides[content[index].id] { content[index].value = value }
            }
            options.content = content
        }
        var target = target
        if let name = recipe.walletVariant {
            guard let varied = target.wallet.variant(name) else {
                throw SimulationError.invalidOption("case \(testCase.id): the \(target.format.rawValue) wallet has no variant \(name)")
            }
            target = ResponseTarget(varied)
        }
        return try MdocSimulator(pki: material.pki(for: recipe.issuer)).simulate(try Self.target(target, recipe.transcript, seed: seed), options: options)
    }

    /// What a relying party that makes its request first (a server) asks for in `testCase`: the case's own request, or
    /// one that asks for exactly the elements the case discloses, none retained.
    public func requestPolicy(for testCase: ConformanceCase) -> RequestPolicy {
        let recipe = testCase.recipe
        if let request = recipe.request { return request }
        // The device-signed element of `device-signed-element-unauthorized` is asked for too, so only its missing
        // keyAuthorizations fail.
        let deviceSigned = recipe.faults.contains(.deviceSignedElementUnauthorized) ? [DocumentBuild.defaultDeviceSignedElement.id] : []
        let nameSpaces = Dictionary(grouping: recipe.elements + deviceSigned, by: \.nameSpace)
            .mapValues { ids in Dictionary(uniqueKeysWithValues: ids.map { ($0.identifier, false) }) }
        return RequestPolicy(documents: [.init(docType: recipe.docType, nameSpaces: nameSpaces)])
    }

    /// Writes every case into `directory/<case id>/` and `manifest.json` and `iaca.pem` beside them; returns the
    /// number of cases written. Files already there are replaced; other files are left alone.
    @discardableResult
    public func write(to directory: URL, progress: (ConformanceCase) -> Void = { _ in }) throws -> Int {
        let material = try material()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for testCase in cases {
            progress(testCase)
            let built = try build(testCase, material: material)
            let folder = directory.appendingPathComponent(testCase.id, isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (name, bytes) in built.files {
                try Data(bytes).write(to: folder.appendingPathComponent(name))
            }
        }
        try Data(material.pki.iacaPEM.utf8).write(to: directory.appendingPathComponent("iaca.pem"))
        try Data(manifest(material: material).utf8).write(to: directory.appendingPathComponent("manifest.json"))
        return cases.count
    }

    /// `manifest.json`: the corpus's time, seed and every case's entry (see `entry(_:material:)`), with a final newline.
    public func manifest(material: Material) -> String {
        var counts: [(String, JSONValue)] = []
        for kit in registry.kits {
            let count = cases.filter { $0.format == kit.format }.count
            if count > 0 { counts.append((kit.format.rawValue, .int(count))) }
        }
        return JSONValue.object([
            ("version", .int(Self.manifestVersion)),
            ("at", .string(RFC3339.format(time))),
            ("seed", .int(seed)),
            ("trust", .string("iaca.pem")),
            ("verdictProtocol", .string(
                "run once per case with \(Self.caseDirectoryVariable) naming the case folder; exit 0 accept, 1 reject, other an error; "
                + "or print one JSON line {\"verdict\": \"accept\"|\"reject\", \"code\": \"...\"}, "
                + "or {\"verdict\": \"not-applicable\", \"reason\": \"...\"} for what the verifier does not do")),
            ("counts", .object(counts)),
            ("cases", .array(cases.map { entry($0, material: material) })),
        ]).serialized(pretty: true) + "\n"
    }

    /// A case's manifest entry (also its `case.json`): id, format, kind, clause, summary, verdict, this implementation's
    /// code(s), requirements, verification time, the input files by role, the request values and the `mdocverify`
    /// arguments that verify it from inside its folder.
    public func entry(_ testCase: ConformanceCase, material: Material) -> JSONValue {
        let inputs = inputs(testCase)
        var files: [(String, JSONValue)] = [("response", .string(inputs.response)), ("trust", .array(inputs.trust.map(JSONValue.string)))]
        if !inputs.crls.isEmpty { files.append(("crls", .array(inputs.crls.map(JSONValue.string)))) }
        if !inputs.statusLists.isEmpty { files.append(("statusLists", .array(inputs.statusLists.map(JSONValue.string)))) }
        if let request = inputs.request { files.append(("request", .string(request))) }
        if let session = inputs.session { files.append(("session", .string(session))) }
        if let key = inputs.privateKey { files.append(("privateKey", .string(key))) }
        if let transcript = inputs.transcript { files.append(("sessionTranscript", .string(transcript))) }
        if let key = inputs.readerKey { files.append(("readerKey", .string(key))) }
        let expected = testCase.expected
        var members: [(String, JSONValue)] = [
            ("id", .string(testCase.id)),
            ("format", .string(testCase.format.rawValue)),
            ("kind", .string(testCase.kind.rawValue)),
            ("clause", .string(testCase.clause)),
            ("summary", .string(testCase.summary)),
            ("verdict", .string(testCase.verdict.rawValue)),
            ("code", expected.code.map { .string($0.rawValue) } ?? .null),
            ("codes", .array(expected.codes.map(\.rawValue).sorted().map(JSONValue.string))),
            ("requires", .array(testCase.requires.sorted().map { .string($0.rawValue) })),
            ("at", .string(RFC3339.format(time))),
            ("folder", .string(testCase.id)),
            ("files", .object(files)),
            ("values", .object(Self.values(material.requests[testCase.format]))),
        ]
        if let fault = testCase.fault { members.append(("fault", .string(fault.name))) }
        if testCase.recipe.replay {
            members.append(("procedure", .string("create one request, post this answer to it twice: the first must be accepted, the second refused")))
        }
        members.append(("mdocverify", .array(mdocverifyArguments(testCase, inputs: inputs).map(JSONValue.string))))
        return .object(members)
    }

    /// `mdocverify verify …` for the case, run from inside its folder, with `--json`.
    func mdocverifyArguments(_ testCase: ConformanceCase, inputs: CorpusInputs) -> [String] {
        var arguments = ["verify", testCase.format.rawValue] + (registry.kit(testCase.format)?.corpus.verifyOptions(inputs) ?? [])
        arguments += inputs.trust.flatMap { ["--trust", $0] } + ["--at", RFC3339.format(time)]
        arguments += inputs.crls.flatMap { ["--crl", $0] } + inputs.statusLists.flatMap { ["--status-list", $0] }
        if !inputs.statusLists.isEmpty { arguments += ["--revocation", "hard"] }
        if testCase.requires.contains(.certificateProfile) { arguments += ["--profile", "strict"] }
        return arguments + ["--json"]
    }

    /// A case's input files, by the format's kit side in this corpus's registry.
    func inputs(_ testCase: ConformanceCase) -> CorpusInputs {
        CorpusInputs(testCase, recipe: testCase.recipe, shape: registry.kit(testCase.format)?.corpus,
                     hasRequestFlow: registry.formats.descriptor(testCase.format)?.hasRequestFlow == true)
    }

    /// The request values a verifier binds into the transcript, as plain text.
    static func values(_ request: SimulatedRequest?) -> [(String, JSONValue)] {
        guard let request else { return [] }
        if let apple = request.target.appleAppRequest {
            return [("merchantID", .string(apple.merchantID)), ("teamID", .string(apple.teamID)),
                    ("nonce", .string(Base64URL.encode(apple.nonce))),
                    ("pkRHash", .string(Hex.encode(RecipientKeyRing.pkRHash(of: apple.merchantKey))))]
        }
        if let annexC = request.target.annexCRequest {
            return [("encryptionInfo", .string(annexC.encryptionInfo)), ("origin", .string(annexC.origin))]
        }
        if let openID4VP = request.target.openID4VPRequest {
            var values: [(String, JSONValue)] = [("origin", .string(openID4VP.origin)), ("nonce", .string(openID4VP.nonce)),
                                                 ("responseMode", .string(openID4VP.responseMode.rawValue)),
                                                 ("protocol", .string(openID4VP.protocolIdentifier)),
                                                 ("queryID", .string(openID4VP.queryID))]
            if let jwk = openID4VP.jwk { values.append(("kid", .string(jwk.kid))) }
            return values
        }
        return []
    }

    /// The device's transcript for `recipe`: the relying party's, another format's, or OpenID4VP draft 24's.
    static func target(_ target: ResponseTarget, _ transcript: Recipe.Transcript, seed: UInt64) throws -> ResponseTarget {
        let other: SessionTranscript
        switch transcript {
        case .own:
            return target
        case .otherFormat:
            if let annexC = target.wallet as? AnnexCWallet {
                let nonce = annexC.request.map { Base64URL.encode($0.nonce) } ?? Base64URL.encode(Digest.hash(.sha256, Array(annexC.encryptionInfo.utf8)))
                other = .openID4VPDCAPI(origin: annexC.origin, nonce: nonce, jwkThumbprint: nil)
            } else {
                let annexC = try AnnexCRequest(seed: seed, origin: target.openID4VPRequest?.origin ?? "https://verifier.example")
                other = annexC.transcript
            }
        case .openID4VPDraft24:
            guard let request = target.openID4VPRequest else { throw SimulationError.invalidOption("draft 24 transcript without an OpenID4VP request") }
            other = .openID4VPDCAPIDraft24(origin: request.origin, clientID: "web-origin:" + request.origin, nonce: request.nonce)
        }
        return ResponseTarget(OtherTranscriptWallet(base: target.wallet, transcript: other))
    }
}

/// A wallet that seals and posts like `base` but whose device signs over `transcript`, another session's.
struct OtherTranscriptWallet: WalletSide {
    let base: any WalletSide
    let transcript: SessionTranscript

    var format: ResponseFormat { base.format }
    var otherTranscript: SessionTranscript { base.otherTranscript }
    var responseURI: String? { base.responseURI }

    func wrap(_ deviceResponse: [UInt8], faults: Set<Fault>, extraEntries: [(CBORValue, CBORValue)], pki: TestPKI) throws
        -> (bytes: [UInt8], text: String?) {
        try base.wrap(deviceResponse, faults: faults, extraEntries: extraEntries, pki: pki)
    }
}

/// A case's input files by role; a pure function of the case, so the manifest needs no build.
package struct CorpusInputs {
    package let response: String
    package let trust: [String]
    package let crls: [String]
    package let statusLists: [String]
    package let request: String?
    package let session: String?
    package let privateKey: String?
    package let transcript: String?
    /// The reader's private key a deviceMac case gives the verifier (PKCS#8 PEM).
    package let readerKey: String?

    init(_ testCase: ConformanceCase, recipe: Recipe, shape: CorpusShape?, hasRequestFlow flow: Bool) {
        response = shape?.responseFile ?? "device-response.cbor"
        trust = ["iaca.pem"] + (recipe.faults.contains(.statusListOtherIssuer) ? ["other-issuer-iaca.pem"] : [])
        let revocation = testCase.requires.contains(.revocation)
        crls = revocation ? ["iaca.crl"] : []
        statusLists = revocation && recipe.statusList
            ? ["status-list.cwt"] + (recipe.faults.contains(.identifierListRevoked) ? ["identifier-list.cwt"] : []) : []
        // The kit adds a request for these faults when the recipe has none.
        let kitRequest = recipe.faults.contains(.duplicateDocType) || recipe.faults.contains(.deviceSignedElementNotRequested)
        request = recipe.request != nil || kitRequest ? "request.json" : nil
        session = flow ? "session.json" : nil
        transcript = flow ? nil : "session-transcript.cbor"
        privateKey = shape?.privateKeyFile
        readerKey = recipe.deviceMac == nil ? nil : "reader-key.pem"
    }

    var allFiles: [String] {
        [response] + trust + crls + statusLists + [request, session, privateKey, transcript, readerKey].compactMap { $0 }
    }
}
