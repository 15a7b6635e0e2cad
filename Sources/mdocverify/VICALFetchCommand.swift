import ArgumentParser
import MdocModel

extension Trust {
    /// `mdocverify trust vical fetch`: `trust vical import` on a list downloaded from its provider.
    struct FetchVICAL: ParsableCommand {
        static let configuration = VICALKind.fetchCommand

        @Option(help: "The VICAL's http or https URL.")
        var url: String

        @OptionGroup var pins: ListPinOptions<VICALKind>
        @OptionGroup var target: ListImportOptions<VICALKind>
        @OptionGroup var download: ListDownloadOptions

        func run() throws {
            try runReportingExit {
                try download.fetch(url, pins: pins) { bytes, roots in
                    try VICALImport.run(bytes, roots: roots, pins: pins, source: InputQuote.redactedURL(url), into: target)
                }
            }
        }
    }
}
