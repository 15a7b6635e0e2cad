import CryptoCore
import MdocConformance
import MdocTesting
import Verifier
import XCTest

/// The DocC article's XCTest example, run as written there (the library needs neither test framework).
final class ConformanceXCTests: XCTestCase {
    func testMyFlowsRefuseEveryFault() throws {
        let environment = FlowEnvironment(configuration: VerifierConfiguration(trustStore: TrustStore(anchors: [])),
                                          recipientKeys: [try PrivateKey.generate(.p256)],
                                          merchantID: "merchant.com.example", teamID: "ABCDE12345")
        let corpus = ConformanceCorpus()
        let target = try RequestFlowTarget(environment: environment, corpus: corpus)
        let summary = ConformanceRun(target: target, cases: corpus.cases.map(ConformanceRunCase.init)).run()
        XCTAssertEqual(summary.count(.wronglyAccepted), 0, summary.text())
        XCTAssertFalse(summary.failed(strict: true), summary.text())
        XCTAssertGreaterThan(summary.count(.passed), 50, summary.text())
    }
}
