import Mdoc
import MdocModel
import MdocTesting
import Testing
import Verifier

/// The document checks run as one declared list; a check whose facts are missing is skipped once, naming them.
@Suite("Document checks: declared order and automatic skips")
struct CheckRunnerTests {
    @Test("a verified response lists every document check once, in the declared order")
    func order() throws {
        let request = RequestPolicy(documents: [.init(docType: DocType.mDL, nameSpaces: [NameSpace.mDL: ["family_name": false]])])
        let result = try SimulatedCase(time: Fixtures.time) {
            $0.elements = [ElementID(NameSpace.mDL, "family_name")]
            $0.request = request
        }.run()
        #expect(result.report.verified, "\(result.report.errors)")
        let perDocument = result.report.checks.filter { $0.document == 0 }.map(\.id)
        // Apple's formats add the mock-data line of each document right after its structure (docs/formats.md §1.6).
        #expect(perDocument == [.documentStructure, .issuerMockData] + DocumentCheck.order.map(\.id))
    }

    @Test("an unsupported issuer algorithm skips the signature check with one line that names the missing fact")
    func skipNamesTheFact() throws {
        let result = try SimulatedCase(faults: [.unsupportedCOSEAlgorithm], time: Fixtures.time).run()
        let signature = result.report.checks.filter { $0.id == .issuerSignature }
        #expect(signature.map(\.status) == [.skip])
        #expect(signature.first?.detail == "needs a supported issuerAuth algorithm, which issuer.algorithm did not establish")
    }

    @Test("without a request the policy checks are skipped, naming the caller")
    func noRequest() throws {
        let result = try SimulatedCase(time: Fixtures.time).run()
        let policy = result.report.checks.filter { $0.id == .policyDocType }
        #expect(policy.map(\.status) == [.skip])
        #expect(policy.first?.detail == "needs the relying party's request, which the caller did not give")
    }

    @Test("each fact is established by exactly one check, before any check that needs it")
    func factsHaveOneEarlierProducer() {
        var established: [DocumentFact] = [.requestPolicy]
        for check in DocumentCheck.order {
            for fact in check.needs {
                #expect(established.contains(fact), "\(check.id) needs \(fact) before any check establishes it")
            }
            for fact in check.produces {
                #expect(!established.contains(fact), "\(fact) is established twice")
                established.append(fact)
            }
        }
    }
}
