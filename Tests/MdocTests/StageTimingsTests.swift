@testable import Mdoc
import Testing

/// The tracing decision lives in `StageTimings`: made once when a verification's timings are created, inherited by the
/// timings nested in it (each document's), which start at zero. No caller passes a flag.
@Suite("Stage timings")
struct StageTimingsTests {
    @Test("nested timings start at zero and trace exactly when their verification's do")
    func nested() {
        var verification = StageTimings()
        verification.measure(.decode) { _ = [UInt8](repeating: 1, count: 64).reduce(0, +) }
        let document = verification.nested()
        #expect(document == StageTimings())
        #expect(document.traced == verification.traced)
    }

    @Test("a traced verification's nested timings trace, an untraced one's do not, two levels down")
    func inheritsTheDecision() {
        #expect(StageTimings(traced: true).nested().traced)
        #expect(StageTimings(traced: true).nested().nested().traced)
        #expect(!StageTimings(traced: false).nested().traced)
        #expect(!StageTimings(traced: false).nested().nested().traced)
    }
}
