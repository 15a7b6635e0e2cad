import Mdoc
import MdocModel

/// A verification whose revocation checks noted lists the source did not hold yet: what its checks established, kept
/// so that once the lists are fetched only the revocation checks run again (`RevocationLookups.finished(as:)`).
/// Nothing is decoded, decrypted or verified twice.
struct VerificationDraft: Sendable {
    let format: VerificationReport.Format
    let assurance: VerificationReport.Assurance
    /// The first run's lines, the formats' own (envelope, mock data) included.
    let log: CheckLog
    let timings: StageTimings
    /// Every parsed document's verification, in document order.
    let documents: [DocumentVerification]

    /// The report with each document's revocation lines replaced by those of a run on what the source holds now;
    /// every other line stands. Documents are released only when no line fails.
    func finished() -> VerificationReport {
        var log = self.log
        var timings = self.timings
        var documents = self.documents
        for index in documents.indices {
            documents[index].revisitRevocation(in: &log, timings: &timings)
        }
        let released = log.hasFailures ? [] : documents.compactMap { $0.verifiedDocument() }
        return VerificationReport(format: format, assurance: assurance, log: log, documents: released, timings: timings)
    }
}
