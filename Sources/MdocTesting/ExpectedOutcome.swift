import Mdoc
import MdocModel
import MdocTrust
import Verifier

/// What a verification of a simulated response must end in.
public enum ExpectedOutcome: Sendable, Hashable, CustomStringConvertible {
    /// Verified, no error.
    case verified
    /// Rejected with this code and no other (it may come from more than one check).
    case rejected(ErrorCode)
    /// Rejected; every code is in the set (combined faults can mask one another, so not all need appear).
    case rejectedWithin(Set<ErrorCode>)

    /// The outcome for a list of faults: none with a code → verified; a transport fault → the code of the first
    /// one the verifier meets (it stops there); otherwise the one code, or the set of the faults' codes.
    /// With deviceMac, Apple and Annex C answer `device.auth_missing` (they accept signatures only) and a bare
    /// DeviceResponse reports device faults as `device.mac_invalid`.
    public static func forFaults(_ faults: [Fault], format: ResponseFormat, profile: CertificateProfile = .default,
                                 deviceAuthentication: SimulationOptions.DeviceAuthMode = .signature) -> ExpectedOutcome {
        forFaults(faults, format: format, profile: profile, deviceAuthentication: deviceAuthentication,
                  refusesDeviceMac: KitFormat.of(format)?.refusesDeviceMac == true, mockDataApplies: MockDataRule.formats.contains(format))
    }

    /// `forFaults(_:format:profile:deviceAuthentication:)` for a format whose kit side says whether it refuses deviceMac
    /// and whose descriptor says whether mock data applies (a registered one).
    package static func forFaults(_ faults: [Fault], format: ResponseFormat, profile: CertificateProfile,
                                  deviceAuthentication: SimulationOptions.DeviceAuthMode, refusesDeviceMac: Bool,
                                  mockDataApplies: Bool) -> ExpectedOutcome {
        func code(_ fault: Fault) -> ErrorCode? { fault.expectedCode(format: format, profile: profile, mockDataApplies: mockDataApplies) }
        let transport = faults.filter { $0.transportStage != nil && code($0) != nil }
        if let first = transport.min(by: { ($0.transportStage ?? 0) < ($1.transportStage ?? 0) }), let code = code(first) {
            return .rejected(code)
        }
        var codes = Set(faults.compactMap(code))
        if deviceAuthentication == .mac {
            if refusesDeviceMac {
                codes.remove(.deviceSignatureInvalid)
                codes.insert(.deviceAuthMissing)
            } else if codes.remove(.deviceSignatureInvalid) != nil {
                codes.insert(.deviceMacInvalid)
            }
        }
        // Mock data needs a device signature that verifies; without one a zeroed issuer signature is just invalid.
        if codes.contains(.issuerMockData),
           deviceAuthentication == .mac || faults.contains(where: Fault.breakingDeviceSignature.contains) {
            codes.remove(.issuerMockData)
            codes.insert(.issuerSignatureInvalid)
        }
        switch codes.count {
        case 0: return .verified
        case 1: return .rejected(codes.first ?? .responseMalformed)
        default: return .rejectedWithin(codes)
        }
    }

    /// Whether the response must verify.
    public var isVerified: Bool { self == .verified }

    /// The code a single-code rejection names.
    public var code: ErrorCode? {
        if case .rejected(let code) = self { return code }
        return nil
    }

    /// Every code the outcome allows: none for `verified`, one for `rejected`, the set for `rejectedWithin`.
    public var codes: Set<ErrorCode> {
        switch self {
        case .verified: return []
        case .rejected(let code): return [code]
        case .rejectedWithin(let codes): return codes
        }
    }

    /// A readable form of the outcome, for failure messages.
    public var description: String {
        switch self {
        case .verified: return "verified"
        case .rejected(let code): return "rejected with \(code.rawValue) only"
        case .rejectedWithin(let codes): return "rejected with codes within {\(codes.map(\.rawValue).sorted().joined(separator: ", "))}"
        }
    }
}

/// Compares a report with the expected outcome: nil when they agree, else a message that shows the whole
/// report (every check, its status, code and detail). Usable from XCTest (`XCTAssertNil`) and Swift Testing
/// (`#expect(expectation(...) == nil)`, or `Issue.record`) alike.
public func expectation(_ report: VerificationReport, _ expected: ExpectedOutcome) -> String? {
    let codes = Set(report.errors.map(\.code))
    let matches: Bool
    switch expected {
    case .verified:
        matches = report.verified
    case .rejected(let code):
        matches = !report.verified && codes == [code]
    case .rejectedWithin(let allowed):
        matches = !report.verified && !codes.isEmpty && codes.isSubset(of: allowed)
    }
    if matches { return nil }
    let got = report.verified ? "verified" : "rejected with {\(codes.map(\.rawValue).sorted().joined(separator: ", "))}"
    return "expected \(expected), got \(got)\n" + ReportSummary.text(report)
}

/// A plain-text rendering of a report for failure messages.
public enum ReportSummary {
    /// Renders `report` as text: a header line, one line per check with its status, code and detail, then the errors.
    public static func text(_ report: VerificationReport) -> String {
        var lines = ["report (\(report.format.rawValue), assurance \(report.assurance.rawValue), verified: \(report.verified)):"]
        for check in report.checks {
            let document = check.document.map { " [doc \($0)]" } ?? ""
            let code = check.code.map { " \($0.rawValue)" } ?? ""
            lines.append("  \(check.status.rawValue.uppercased()) \(check.id)\(document)\(code): \(check.detail)")
        }
        if report.errors.isEmpty {
            lines.append("  errors: none")
        } else {
            for error in report.errors { lines.append("  error \(error.code.rawValue): \(error.message)") }
        }
        return lines.joined(separator: "\n")
    }
}
