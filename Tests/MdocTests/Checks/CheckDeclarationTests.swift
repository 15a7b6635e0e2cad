@testable import Mdoc
@testable import MdocModel
@testable import MdocTrust
import MdocTesting
import Testing

/// Walks every document check: given exactly the facts it declares, it runs and establishes nothing beyond its
/// `produces`; without any one of its `needs`, it writes one skip line naming that fact. (A check body cannot reach
/// other facts at all: `DocumentFacts` keeps its values `fileprivate`, and the typed constructors hand a check only
/// what it declared.)
@Suite("Document checks: each receives the facts it declares and establishes only those it declares")
struct CheckDeclarationTests {
    @Test("given only its declared facts, each check writes its lines and establishes at most its produces")
    func declaredFactsOnly() throws {
        let parsed = try CheckFixture.mDL()
        let request = PolicyElementsTests.request(for: parsed.document, naming: nil)
        for check in DocumentCheck.order {
            let given = Set(check.needs + check.uses)
            let before = CheckFixture.facts(parsed, given, request: request)
            for fact in given { #expect(before.has(fact), "the fixture cannot give \(fact)") }
            let result = CheckFixture.run(check, on: parsed, facts: before)
            #expect(!result.lines.isEmpty && !result.lines.contains("skip"), "\(check.id): \(result.lines) \(result.details)")
            let established = Set(DocumentFact.allCases.filter { result.facts.has($0) && !before.has($0) })
            #expect(established.isSubset(of: Set(check.produces)), "\(check.id) established \(established)")
            if result.lines.allSatisfy({ $0 == "pass" }) {
                #expect(established == Set(check.produces), "\(check.id) passed without establishing \(check.produces)")
            }
        }
    }

    @Test("without one of its needs, each check writes one skip line that names the missing fact")
    func eachNeedSkips() throws {
        let parsed = try CheckFixture.mDL()
        let request = PolicyElementsTests.request(for: parsed.document, naming: nil)
        for check in DocumentCheck.order {
            for missing in check.needs {
                let facts = CheckFixture.facts(parsed, Set(check.needs + check.uses).subtracting([missing]), request: request)
                let result = CheckFixture.run(check, on: parsed, facts: facts)
                #expect(result.lines == ["skip"], "\(check.id) without \(missing)")
                #expect(result.details.first?.hasPrefix("needs \(missing)") == true, "\(check.id): \(result.details)")
                #expect(check.produces.allSatisfy { !result.facts.has($0) }, "\(check.id) established a fact while skipped")
            }
        }
    }

    @Test("each check run alone in the declared order, threading the facts, writes exactly the runner's lines")
    func tablesRunAsTheRunner() throws {
        let parsed = try CheckFixture.mDL()
        let request = PolicyElementsTests.request(for: parsed.document, naming: nil)
        let context = MdocVerificationContext(time: CheckFixture.time, transcript: CheckFixture.transcript, readerKey: nil,
                                              options: MdocVerificationOptions(), trustStore: parsed.pki.trustStore,
                                              cache: CertificateCache(), request: request)
        var runner = DocumentVerification(index: 0, document: parsed.document, context: context)
        runner.run()
        var alone = DocumentVerification(index: 0, document: parsed.document, context: context)
        var facts = DocumentFacts(requestPolicy: request)
        for check in DocumentCheck.order { check.run(&alone, facts: &facts) }
        #expect(alone.log.checks == runner.log.checks)
        #expect(runner.log.checks.map(\.id) == DocumentCheck.order.map(\.id))
        #expect(runner.verifiedDocument() != nil)
    }

    @Test("a fact a check uses when present is established earlier in the order, and is never also a need")
    func usesComeFromEarlierChecks() {
        var established: [DocumentFact] = []
        for check in DocumentCheck.order {
            for fact in check.uses {
                #expect(established.contains(fact), "\(check.id) uses \(fact) before any check establishes it")
                #expect(!check.needs.contains(fact))
            }
            established += check.produces
        }
    }
}
