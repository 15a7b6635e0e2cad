import ArgumentParser
import CryptoCore
import Foundation
import MdocModel
import MdocTesting
import Verifier

/// The formats this run of mdocverify knows: the built-in ones, or those a caller hands `MdocVerify.run(_:formats:)` (a
/// test that registers a format of its own). `request`, `simulate` and `verify` drive a format without commands of its
/// own through its descriptor and its kit side alone.
enum RegisteredFormats {
    @TaskLocal static var kits: KitRegistry = .standard

    /// The registered format `name`, its descriptor and its flow for `environment`; a usage failure naming the formats
    /// when there is none.
    static func flow(_ name: String, environment: FlowEnvironment) throws -> (FormatDescriptor, any RequestFlow) {
        let formats = kits.formats
        let flows: [any RequestFlow]
        do {
            flows = try formats.flows(environment)
        } catch {
            throw UsageFailure("\(error.code.rawValue): \(error.message)")
        }
        guard let format = formats.format(named: name), let descriptor = formats.descriptor(format),
              let flow = flows.first(where: { $0.format == format }) else {
            let known = formats.descriptors.filter(\.hasRequestFlow).map(\.format.rawValue).joined(separator: ", ")
            throw UsageFailure("\(InputQuote.short(name)) is not a registered format with a request flow (\(known))")
        }
        return (descriptor, flow)
    }
}

extension MdocVerify {
    /// Runs the tool in-process on `arguments` (without the program's name) knowing `formats`; the exit status.
    static func run(_ arguments: [String], formats: KitRegistry) -> Int32 {
        RegisteredFormats.$kits.withValue(formats) {
            do {
                var command = try registeredCommand(arguments) ?? parseAsRoot(arguments)
                try command.run()
                return ExitStatus.verified.rawValue
            } catch {
                let code = exitCode(for: error)
                if code == .validationFailure {
                    FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                    return ExitStatus.usage.rawValue
                }
                return code.rawValue
            }
        }
    }

    /// `request`, `simulate` or `verify` of a registered format that has no commands of its own; nil otherwise.
    static func registeredCommand(_ arguments: [String]) throws -> (any ParsableCommand)? {
        guard arguments.count >= 2, let format = RegisteredFormats.kits.formats.format(named: arguments[1]),
              !FormatCommands.all.contains(where: { $0.format == format }) else { return nil }
        let rest = Array(arguments.dropFirst())
        switch arguments[0] {
        case "request": return try RegisteredRequest.parse(rest)
        case "simulate": return try RegisteredSimulate.parse(rest)
        case "verify": return try RegisteredVerify.parse(rest)
        default: return nil
        }
    }
}

/// `request <format>` through the format's flow: published.json (what the page or app gets, with the format's
/// protocol), session.json and request.json.
struct RegisteredRequest: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "request", abstract: "Create a request of a registered format.")

    @Argument(help: "The registered format.")
    var format: String

    @Option(help: "The origin of the requesting page, for a format whose transcript binds it.")
    var origin: String?

    @OptionGroup var files: RequestFiles

    func run() throws {
        try runReportingExit {
            let policy = try files.policy()
            let (descriptor, flow) = try RegisteredFormats.flow(format, environment: FlowEnvironment(configuration: VerifierConfiguration(
                trustStore: TrustStore(anchors: []))))
            let prepared: PreparedRequest
            do throws(VerificationError) {
                prepared = try flow.prepare(policy: policy, context: RequestCreation(origin: origin, expiresAt: Date().addingTimeInterval(300)))
            } catch {
                throw UsageFailure("\(error.code.rawValue): \(error.message)")
            }
            var fields = prepared.publicFields
            if let wireProtocol = descriptor.wire.dcAPIProtocols.first, !fields.contains(where: { $0.0 == "protocol" }) {
                fields.append(("protocol", .string(wireProtocol)))
            }
            let session = SessionFile(format: descriptor.format, state: prepared.state, request: policy)
            try RequestOutputFiles.writeRequest("published.json", .object(fields), session: session, policy: policy, into: files.out)
            return .verified
        }
    }
}

/// `simulate <format>`: the kit's wallet of the format answers published.json.
struct RegisteredSimulate: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "simulate", abstract: "Answer a registered format's request as the kit's wallet.")

    @Argument(help: "The registered format.")
    var format: String

    @Option(help: "published.json, as `request <format>` wrote it.")
    var published: String

    @Option(help: "The origin of the requesting page.")
    var origin: String = "https://shop.example"

    @OptionGroup var document: SimulationArguments

    func run() throws {
        try runReportingExit {
            let text = try InputFiles.readText(published, what: "published request", maxBytes: 1 << 20)
            guard let fields = JSONValue.object(text, maxNodes: 100_000) else { throw UsageFailure("\(published) is not a JSON object") }
            guard let name = RegisteredFormats.kits.formats.format(named: format), let kit = RegisteredFormats.kits.kit(name),
                  let answering = kit.answering else {
                throw UsageFailure("the kit's wallet does not answer a published \(InputQuote.short(format)) request")
            }
            let request = PublishedRequest(value: { name in
                guard let value = fields[name] else { throw UsageFailure("\(published) has no \(InputQuote.short(name))") }
                return value
            }, origin: origin, merchantKey: nil, merchantID: "", teamID: "")
            let built = try document.simulate(try answering(request))
            let files = try document.write(built, responseName: "device-response.cbor")
            let posted = try OutputFiles.write(Array(built.response.postedText.utf8), to: document.out, name: kit.corpus.responseFile)
            try document.writeCase(built, files: files, verify: nil, extra: ["posted": posted])
            return .verified
        }
    }
}

/// `verify <format>`: the answer as posted, against session.json, through the format's flow.
struct RegisteredVerify: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "verify", abstract: "Verify an answer to a registered format's request.")

    @Argument(help: "The registered format.")
    var format: String

    @Option(help: "The answer as the client posted it.")
    var response: String

    @Option(help: "session.json written by `request <format>`.")
    var session: String

    @OptionGroup var options: VerificationOptions

    func run() throws {
        try runReportingExit {
            let text = try InputFiles.readText(response, what: "response", maxBytes: InputFiles.maxResponseFileBytes)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let (configuration, revocation) = try options.configuration(testMode: false)
            let (descriptor, flow) = try RegisteredFormats.flow(format, environment: FlowEnvironment(configuration: configuration))
            let kept = try SessionFile.read(session, expected: descriptor.format)
            let policy = try kept.policy(requestPath: options.request)
            let time = try InputFiles.time(options.at)
            let report = revocation.verify { lookups in flow.verify(response: text, state: kept.state, policy: policy, at: time, noting: lookups) }
            return ReportPrinter.emit(report, json: options.json, defaultTrust: options.trust.isEmpty)
        }
    }
}
