import ArgumentParser
import Verifier

/// The CLI's commands of each format: one entry per `FormatRegistry` descriptor, in registry order. `verify`,
/// `request` and `simulate` take their subcommand lists from here (argument-parser needs the command types, which
/// the library's descriptors cannot name); `FormatListTests` fails when a registered format has no entry.
struct FormatCommands {
    let format: VerificationReport.Format
    let verify: any ParsableCommand.Type
    /// Nil for a format without a request flow (a bare DeviceResponse's caller builds the transcript).
    let request: (any ParsableCommand.Type)?
    let simulate: any ParsableCommand.Type

    static let all: [FormatCommands] = [
        FormatCommands(format: .appleApp, verify: Verify.AppleApp.self, request: Request.AppleApp.self, simulate: Simulate.AppleApp.self),
        FormatCommands(format: .annexC, verify: Verify.AnnexC.self, request: Request.AnnexC.self, simulate: Simulate.AnnexC.self),
        FormatCommands(format: .deviceResponse, verify: Verify.DeviceResponse.self, request: nil, simulate: Simulate.DeviceResponse.self),
        FormatCommands(format: .openID4VP, verify: Verify.OpenID4VP.self, request: Request.OpenID4VP.self, simulate: Simulate.OpenID4VP.self),
        FormatCommands(format: .openID4VPRedirect, verify: Verify.OpenID4VPRedirect.self, request: Request.OpenID4VPRedirect.self,
                       simulate: Simulate.OpenID4VPRedirect.self),
    ]

    static var verifyCommands: [any ParsableCommand.Type] { all.map(\.verify) }
    static var requestCommands: [any ParsableCommand.Type] { all.compactMap(\.request) }
    static var simulateCommands: [any ParsableCommand.Type] { all.map(\.simulate) }
}
