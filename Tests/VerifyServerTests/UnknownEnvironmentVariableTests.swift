import Foundation
import Testing
import TestSupport
import VerifyServer

@Suite("verify-server warns about unknown VERIFY_SERVER_* variables")
struct UnknownEnvironmentVariableTests {
    @Test("only unknown VERIFY_SERVER_ names are reported, sorted, with the variable a misspelling meant")
    func unknownNames() {
        let environment = [
            "VERIFY_SERVER_LOGLEVEL": "debug", "VERIFY_SERVER_PORT": "1", "VERIFY_SERVER_CONFIG": "x.yaml",
            "VERIFY_SERVER_TOTALLY_NEW": "secret-value-123", "HOME": "/root", "verify_server_port": "2",
        ]
        #expect(ConfigurationLoader.unknownVariables(in: environment) == ["VERIFY_SERVER_LOGLEVEL", "VERIFY_SERVER_TOTALLY_NEW"])
        let warnings = ConfigurationLoader.unknownVariableWarnings(in: environment)
        #expect(warnings == [
            "environment variable VERIFY_SERVER_LOGLEVEL is not a configuration setting and is ignored; did you mean VERIFY_SERVER_LOG_LEVEL?",
            "environment variable VERIFY_SERVER_TOTALLY_NEW is not a configuration setting and is ignored",
        ])
        #expect(!warnings.joined().contains("secret-value-123") && !warnings.joined().contains("debug"))
        #expect(ConfigurationLoader.unknownVariables(in: ["VERIFY_SERVER_MAX_OUTSTANDING_REQUESTS_PER_CLIENT": "1"]).isEmpty)
    }

    @Test("a name with control characters is quoted and escaped")
    func hostileName() throws {
        let warning = try #require(ConfigurationLoader.unknownVariableWarnings(in: ["VERIFY_SERVER_X\u{1B}[2J\u{202E}": "v"]).first)
        #expect(!warning.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E }, "\(warning)")
    }

    @Test("the executable warns at start (naming the variable, not its value) and keeps running; --check-config warns too")
    func executable() throws {
        let extra = ["VERIFY_SERVER_STORE_TIMEOUTS": "hunter2-not-logged"]
        let server = try ServerProcess.start(environment: ServerProcess.sampleEnvironment(extra))
        defer { server.stop() }
        _ = try server.port()
        let text = server.errorLines.joined(separator: "\n")
        #expect(!text.contains("did you mean"), "a name that folds to no known variable gets no suggestion")
        #expect(text.contains("environment variable VERIFY_SERVER_STORE_TIMEOUTS is not a configuration setting and is ignored"), "\(text)")
        #expect(!text.contains("hunter2"))

        let (status, checked) = try ServerProcess.runToExit(environment: ServerProcess.sampleEnvironment(extra), arguments: ["--check-config"])
        #expect(status == 0)
        #expect(checked.contains("verify-server: warning: environment variable VERIFY_SERVER_STORE_TIMEOUTS is not a configuration setting"), "\(checked)")
        #expect(!checked.contains("hunter2"))
    }
}
