import CBOR
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import Verifier

/// One case as a run sees it: an entry of a corpus's `manifest.json` on disk (the command target), or a case of the
/// kit's catalogue that a target builds for each live request (`ConformanceCorpus.cases`).
public struct ConformanceRunCase: Sendable {
    /// `format/kind/name`, e.g. `annex-c/fault/mso-expired`.
    public let id: String
    /// The format's identifier, e.g. `annex-c`.
    public let format: String
    /// `positive`, `fault` or `attack`.
    public let kind: String
    /// The standard clause or relying-party rule the case exercises.
    public let clause: String
    /// What is wrong with the response, in one sentence.
    public let summary: String
    /// The verdict every verifier must reach.
    public let verdict: ConformanceCase.Verdict
    /// This implementation's code when exactly one is expected.
    public let code: String?
    /// Every code this implementation may name.
    public let codes: [String]
    /// What a verifier must do for the case to apply (`request-policy`, `revocation`, `state`).
    public let requires: [String]
    /// The case's folder, for a case read from a manifest.
    public let folder: URL?
    /// The catalogue's case, for a case a target builds itself.
    public let libraryCase: ConformanceCase?

    /// `manifest.json`'s cases, their folders under `root`.
    public static func manifest(in root: URL) throws(ConformanceError) -> [ConformanceRunCase] {
        struct Manifest: Decodable {
            struct Entry: Decodable {
                let id, format, kind, clause, summary, verdict, folder: String
                let code: String?
                let codes, requires: [String]
            }
            let version: Int
            let cases: [Entry]
        }
        let url = root.appendingPathComponent("manifest.json")
        let text = try ConformanceError.readText(url.path, what: "manifest", maxBytes: 32 << 20)
        let manifest: Manifest
        do {
            manifest = try JSONDecoder().decode(Manifest.self, from: Data(text.utf8))
        } catch {
            throw ConformanceError("\(url.path) is not a conformance manifest: generate one with `mdocverify conformance generate --out DIR`")
        }
        guard manifest.version == ConformanceCorpus.manifestVersion else {
            throw ConformanceError("\(url.path) is manifest version \(manifest.version); this mdocverify reads version \(ConformanceCorpus.manifestVersion): generate the corpus again")
        }
        return try manifest.cases.map { entry throws(ConformanceError) in
            guard let verdict = ConformanceCase.Verdict(rawValue: entry.verdict), !entry.folder.contains(".."), !entry.folder.hasPrefix("/") else {
                throw ConformanceError("\(url.path): case \(InputQuote.short(entry.id)) has an unknown verdict or a folder outside the corpus")
            }
            return ConformanceRunCase(id: entry.id, format: entry.format, kind: entry.kind, clause: entry.clause, summary: entry.summary, verdict: verdict,
                           code: entry.code, codes: entry.codes, requires: entry.requires,
                           folder: root.appendingPathComponent(entry.folder, isDirectory: true), libraryCase: nil)
        }
    }

    /// A case from its parts.
    public init(id: String, format: String, kind: String, clause: String, summary: String, verdict: ConformanceCase.Verdict, code: String?,
         codes: [String], requires: [String], folder: URL?, libraryCase: ConformanceCase?) {
        self.id = id
        self.format = format
        self.kind = kind
        self.clause = clause
        self.summary = summary
        self.verdict = verdict
        self.code = code
        self.codes = codes
        self.requires = requires
        self.folder = folder
        self.libraryCase = libraryCase
    }

    /// A library case as a relying party that always checks a request sees it (verify-server).
    public init(_ testCase: ConformanceCase) {
        let expected = testCase.expectedWithRequest
        self.init(id: testCase.id, format: testCase.format.rawValue, kind: testCase.kind.rawValue, clause: testCase.clause,
                  summary: testCase.summary, verdict: testCase.verdict, code: expected.code?.rawValue,
                  codes: expected.codes.map(\.rawValue).sorted(), requires: testCase.requires.map(\.rawValue).sorted(),
                  folder: nil, libraryCase: testCase)
    }

    /// What the case needs, in words: "rejected (mso.expired)" or "accepted".
    public var expectation: String {
        verdict == .accept ? "accepted" : "rejected" + (codes.isEmpty ? "" : " (here: \(codes.joined(separator: " or ")))")
    }
}

