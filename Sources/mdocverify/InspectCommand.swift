import ArgumentParser
import CBOR
import Foundation

/// Prints any CBOR (envelope, DeviceResponse, …) in diagnostic notation with tag-24 contents expanded. No verdict.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decode CBOR (raw, hex or base64) and print it in diagnostic notation, tag-24 contents expanded."
    )

    @Argument(help: "File holding CBOR: raw bytes, or hex / base64 / base64url text.")
    var path: String

    func run() throws {
        try runReportingExit {
            let bytes = InputFiles.decodeResponse(try InputFiles.read(path, what: "input"))
            do {
                let item = try CBORDecoder.decode(bytes)
                // Text strings come out quoted with their controls escaped; the whole line is escaped once more so
                // nothing from the input reaches the terminal raw.
                print(TerminalText.escaped(item.diagnostic(expandEmbedded: true)))
                return .verified
            } catch {
                FileHandle.standardError.write(Data("not well-formed CBOR: \(error)\n".utf8))
                return .rejected
            }
        }
    }
}
