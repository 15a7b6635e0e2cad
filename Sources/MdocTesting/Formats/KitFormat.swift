import Foundation
import Mdoc
import MdocModel
import Verifier

/// The compliance kit's side of one format: how it stands in for the relying party of a seeded case, which
/// transport faults its envelope has and what they must produce.
///
/// Each format's file under `Formats/` declares its value; `KitFormat.all` lists them in `FormatRegistry` order, and
/// a test keeps the two lists equal.
package struct KitFormat: Sendable {
    /// What a seeded case's relying party keeps: the wallet's target, the flow's kept state (nil without a request
    /// flow) and the environment its flow is built on.
    package struct SeededRequest: Sendable {
        package let target: ResponseTarget
        package let state: [String: String]?
        package let environment: FlowEnvironment
    }

    /// What a seeded request is made from.
    package struct Seed: Sendable {
        package let seed: UInt64
        package let pki: TestPKI
        package let configuration: VerifierConfiguration
        package let responseMode: OpenID4VPSession.ResponseMode
    }

    /// The format.
    package let format: ResponseFormat
    /// Faults of this format's envelope beside the mdoc faults every format has (e.g. Apple's `wrongInfoHash`).
    package let transportFaults: Set<Fault>
    /// The code each transport fault must produce here, where it differs from `Fault.expectedCode`'s default.
    package let transportCodes: [Fault: ErrorCode]
    /// Whether deviceMac is refused outright (`device.auth_missing`) rather than checked.
    package let refusesDeviceMac: Bool
    /// The relying party's side of a seeded case.
    package let seededRequest: @Sendable (Seed) throws -> SeededRequest

    /// Every format's kit side, in `FormatRegistry` order.
    package static let all: [KitFormat] = FormatRegistry.descriptors.compactMap { descriptor in
        registered.first { $0.format == descriptor.format }
    }

    /// The kit side of each format; `KitFormatTests` checks that every registered format has one.
    static let registered: [KitFormat] = [.appleApp, .annexC, .deviceResponse, .openID4VP]

    /// The kit side of `format`; nil for a format the kit cannot simulate.
    package static func of(_ format: ResponseFormat) -> KitFormat? { all.first { $0.format == format } }
}
