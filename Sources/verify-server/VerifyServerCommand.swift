import ArgumentParser
import CBOR
import Foundation
import Logging
import ServiceLifecycle
import Verifier
import VerifyServer

@main
enum Entrypoint {
    static func main() async {
        EventLoopExecutor.install()
        await VerifyServerCommand.main()
    }
}

struct VerifyServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify-server",
        abstract: "HTTP service that creates wallet ID requests and verifies the responses.",
        discussion: """
            Configuration: a JSON or YAML file (--config or VERIFY_SERVER_CONFIG), overridden by VERIFY_SERVER_* \
            environment variables. See README.md ("verify-server") and docs/openapi.yaml.
            """,
        version: ProductVersion.description)

    @Option(name: .long, help: "Config file (.json, .yaml or .yml).")
    var config: String?

    @Flag(name: .long, help: "Check the configuration (keys, trust store) and exit; the store is not contacted unless --connect is given.")
    var checkConfig = false

    @Flag(name: .long, help: "With --check-config: also reach the request store (PostgreSQL: TLS, password, SELECT 1) and download the VICALs and LoTEs with a url.")
    var connect = false

    @Flag(name: .long, help: "Print the configuration reference (Markdown: every key, its default and environment variable) and exit.")
    var printConfigReference = false

    @Option(name: .long, help: ArgumentHelp("Print a new API key for the backend API once, with its apiKeys entry (the key's SHA-256), and exit.",
                                            valueName: "key-id"))
    var newApiKey: String?

    @Flag(name: .long, help: "Bring the configured request store's schema to this version's and exit. Run it as the schema's owner; the service may then run as a role with only the grants docs/schema.md lists.")
    var migrate = false

    @Option(name: .long, help: ArgumentHelp("Print the request store's schema (postgres or sqlite) as SQL and exit.", valueName: "dialect"))
    var printSchema: String?

    func run() async throws {
        if await runOneShot() { return }
        let environment = ProcessInfo.processInfo.environment
        let (settings, readProblems) = ConfigurationLoader.read(file: config, environment: environment)
        let runtime: VerifierRuntime
        do {
            runtime = try VerifierRuntime.load(settings, earlierProblems: readProblems)
        } catch {
            // --connect: the store's problems too, so one run lists them all.
            Self.refuse(ConfigurationProblems(error.problems + (checkConfig && connect ? await Self.connectCheck(settings).problems : [])))
        }
        let unknownVariables = ConfigurationLoader.unknownVariableWarnings(in: environment)
        if checkConfig {
            for warning in unknownVariables {
                FileHandle.standardError.write(Data("verify-server: warning: \(warning)\n".utf8))
            }
            var fetched: [String] = []
            if connect {
                let (problems, lists) = await Self.connectCheck(settings)
                guard problems.isEmpty else { Self.refuse(ConfigurationProblems(problems)) }
                fetched = lists
            }
            print("configuration OK: \(runtime.keyCount) decryption key(s), \(runtime.trustStore.anchors.count) trust anchor(s), "
                  + "store \(settings.store.redacted)\(settings.testMode ? ", TEST MODE" : "")"
                  + (connect ? " (reached)" : " (not contacted: add --connect to reach it)"))
            // A list's provider names come from its signed content: escaped like the log.
            for line in fetched { print("  " + TerminalText.escaped(line)) }
            return
        }

        Self.bootstrapLogging(settings)
        let logger = Logger(label: "verify-server")
        for warning in unknownVariables { logger.warning("\(warning)") }
        if settings.testMode {
            logger.warning("TEST MODE: Apple's test key is accepted and every report says assurance: test")
        }
        let file = config
        let app = try await VerifyServerApp.make(runtime: runtime, rereadConfiguration: {
            ConfigurationLoader.read(file: file, environment: ProcessInfo.processInfo.environment)
        }, logger: logger)
        let group = Self.serviceGroup(app, grace: settings.shutdownGrace, logger: logger)
        do {
            try await group.run()
        } catch let failure as ListenFailure {
            FileHandle.standardError.write(Data("verify-server: \(TerminalText.escaped(failure.description))\n".utf8))
            Foundation.exit(1)
        }
    }

    /// The options that do one thing and exit (the reference, the schema, a migration, a new key); false when none
    /// is given.
    func runOneShot() async -> Bool {
        if printConfigReference {
            print(ConfigurationReference.markdown, terminator: "")
            return true
        }
        if let printSchema {
            guard let script = StoreSchema.script(printSchema) else {
                FileHandle.standardError.write(Data("verify-server: --print-schema takes postgres or sqlite\n".utf8))
                Foundation.exit(2)
            }
            print(script, terminator: "")
            return true
        }
        if migrate {
            await Self.migrate(config: config)
            return true
        }
        if connect && !checkConfig {
            FileHandle.standardError.write(Data("verify-server: --connect goes with --check-config\n".utf8))
            Foundation.exit(2)
        }
        if let id = newApiKey {
            do {
                print(try APIKey.newKeyListing(id: id))
                return true
            } catch {
                Self.refuse(error)
            }
        }
        return false
    }

    /// `--migrate`: the configured store's schema brought to this version, one line; exit 1 when the store refuses (2
    /// for a configuration that cannot be read).
    static func migrate(config: String?) async {
        let (settings, problems) = ConfigurationLoader.read(file: config, environment: ProcessInfo.processInfo.environment)
        // A configuration that does not read (a malformed storeURL among it) never falls back to the default store.
        guard problems.isEmpty else { refuse(ConfigurationProblems(problems)) }
        var quiet = Logger(label: "verify-server")
        quiet.logLevel = .critical
        // Reached first as --check-config --connect reaches it: within storeTimeout, its failure named in one line
        // (a pool would retry an unreachable PostgreSQL for ever).
        let unreachable = await settings.checkStoreConnection(logger: quiet)
        guard unreachable.isEmpty else {
            for line in unreachable { FileHandle.standardError.write(Data("verify-server: \(TerminalText.escaped(line))\n".utf8)) }
            Foundation.exit(1)
        }
        do {
            let version = try await settings.migrateStore(logger: quiet)
            print("store \(settings.store.redacted): schema at version \(version)")
        } catch {
            FileHandle.standardError.write(Data("verify-server: store \(settings.store.redacted): \(TerminalText.escaped("\(error)"))\n".utf8))
            Foundation.exit(1)
        }
    }

    /// The service group running `app` until SIGTERM or SIGINT. The graceful shutdown is bounded: past `grace` seconds
    /// whatever still runs is cancelled, and past a further five seconds the process exits anyway (webhook events not
    /// yet delivered stay in the store's outbox).
    static func serviceGroup(_ app: VerifyServerApp, grace: TimeInterval, logger: Logger) -> ServiceGroup {
        var configuration = ServiceGroupConfiguration(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = .milliseconds(Int64(grace * 1000))
        configuration.maximumCancellationDuration = .seconds(5)
        return ServiceGroup(configuration: configuration)
    }

    /// What reaching the configured store and the VICALs and LoTEs to download went wrong with (--check-config --connect), one
    /// line each, and a line per trust list downloaded and verified.
    static func connectCheck(_ settings: ServerConfiguration) async -> (problems: [String], fetched: [String]) {
        var quiet = Logger(label: "verify-server")
        quiet.logLevel = .critical
        let lists = await settings.checkTrustLists()
        return (await settings.checkStoreConnection(logger: quiet) + lists.problems, lists.fetched)
    }

    /// Log lines to standard error at the configured level, as text or as one JSON object per line.
    static func bootstrapLogging(_ settings: ServerConfiguration) {
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler = switch settings.logFormat {
            case .text: StreamLogHandler.standardError(label: label)
            case .json: JSONLogHandler.standardError(label: label)
            }
            handler.logLevel = settings.logLevel
            return handler
        }
    }

    /// One line per problem on stderr, exit status 2. (An address that cannot be bound is one line too, exit status 1.)
    static func refuse(_ error: ConfigurationProblems) -> Never {
        for problem in error.problems {
            // A problem may quote a VICAL's provider or a certificate: escaped like the log.
            FileHandle.standardError.write(Data("verify-server: configuration: \(TerminalText.escaped(problem))\n".utf8))
        }
        FileHandle.standardError.write(Data("verify-server: refusing to start (\(error.problems.count) problem(s))\n".utf8))
        Foundation.exit(2)
    }
}
