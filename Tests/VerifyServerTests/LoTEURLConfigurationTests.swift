import Foundation
import MdocTesting
import Testing
import VerifyServer

/// `lotes` entries with a `url`, in a file and in the environment, and what is wrong with them.
@Suite("verify-server LoTE url configuration")
struct LoTEURLConfigurationTests {
    static func read(_ yaml: String, environment: [String: String] = [:]) throws -> (ServerConfiguration, [String]) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lotes-\(UUID().uuidString).yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let (configuration, problems) = ConfigurationLoader.read(file: file.path, environment: environment)
        return (configuration, problems + configuration.problems)
    }

    static let mapping = "serviceTypes: [\(LoTEBuilder.mdlIssuance)], docTypes: [org.iso.18013.5.1.mDL]"

    @Test("url entries with refresh; the environment's URL=ROOT=TYPE=DOCTYPE splits at the last three '='")
    func entries() throws {
        let (configuration, problems) = try Self.read("""
            lotes:
              - {url: "https://lists.example/mdl?key=1", root: /etc/ec.pem, refresh: 600, \(Self.mapping)}
            vicalCacheDirectory: /var/lib/verify-server/lists
            """)
        #expect(!problems.contains { $0.contains("lote") }, "\(problems)")
        #expect(configuration.lotes == [LoTESource(url: "https://lists.example/mdl?key=1", root: "/etc/ec.pem", serviceTypes: [LoTEBuilder.mdlIssuance],
                                                   docTypes: ["org.iso.18013.5.1.mDL"], refresh: 600)])
        let (fromEnvironment, environmentProblems) = ConfigurationLoader.read(file: nil, environment: [
            "VERIFY_SERVER_LOTES": "https://lists.example/mdl?key=1=/etc/ec.pem=\(LoTEBuilder.mdlListType)=org.iso.18013.5.1.mDL"])
        #expect(environmentProblems.isEmpty, "\(environmentProblems)")
        #expect(fromEnvironment.lotes.first?.url == "https://lists.example/mdl?key=1")
        #expect(fromEnvironment.lotes.first?.root == "/etc/ec.pem")
        #expect(fromEnvironment.lotes.first?.serviceTypes == [LoTEBuilder.mdlListType])
    }

    @Test("url absent, empty, of the wrong type or scheme, beside a file, refresh out of range or on a file, and a url listed twice are problems")
    func problems() throws {
        for (entry, expected) in [
            ("{root: /r.pem, \(Self.mapping)}", "needs `file` or `url`"),
            ("{url: '', root: /r.pem, \(Self.mapping)}", "needs `file` or `url`"),
            ("{url: [a, b], root: /r.pem, \(Self.mapping)}", "is not an http or https URL"),
            ("{url: 5, root: /r.pem, \(Self.mapping)}", "is not an http or https URL"),
            ("{url: 'ftp://lists.example/l', root: /r.pem, \(Self.mapping)}", "is not an http or https URL"),
            ("{url: 'https://lists.example/l', file: /l.jwt, root: /r.pem, \(Self.mapping)}", "not both"),
            ("{url: 'https://lists.example/l', root: /r.pem, refresh: 5, \(Self.mapping)}", "must be 60 to 86400 seconds"),
            ("{url: 'https://lists.example/l', root: /r.pem, refresh: soon, \(Self.mapping)}", "refresh must be a number of seconds"),
            ("{file: /l.jwt, root: /r.pem, refresh: 600, \(Self.mapping)}", "`refresh` is for entries with a `url`"),
        ] {
            let (_, problems) = try Self.read("lotes:\n  - " + entry)
            #expect(problems.contains { $0.contains(expected) }, "\(entry): \(problems)")
        }
        var configuration = AppleSample.configuration()
        let source = LoTESource(url: "https://user:secret@lists.example/l?token=abc", root: "/r.pem", serviceTypes: ["t"], docTypes: ["d"])
        configuration.lotes = [source, source]
        let problems = configuration.problems.joined(separator: "\n")
        #expect(problems.contains("lotes: https://lists.example/l is listed twice"), "\(problems)")
        #expect(!problems.contains("secret") && !problems.contains("abc"), "the URL's user info and query stay out of problems")
        configuration.vicalCacheDirectory = ""
        #expect(configuration.problems.contains { $0.contains("vicalCacheDirectory is empty") })
    }
}
