import Mdoc
import MdocModel

extension CheckID {
    /// `issuer.mock_data`: whether a document is mock data from a development device (Apple's Wallet developer
    /// profile): no issuer signature, a device signature that verifies. A failure outside test mode, a warning in it; see
    /// `MockDataRule`.
    public static let issuerMockData = CheckID(
        "issuer.mock_data", clause: "Apple Business Connect, Verify with Wallet on the Web FAQ (developer profile); docs/formats.md §1.6",
        codes: [.issuerMockData])
}

extension ErrorCode {
    /// `issuer.mock_data`: the document is mock data from a development device (Apple's Wallet developer profile): its
    /// device signature verifies but issuerAuth carries no issuer signature. Refused outside test mode.
    public static let issuerMockData = ErrorCode("issuer.mock_data")
}

/// The one rule that recognises mock data from a development device (docs/formats.md §1.6).
///
/// Apple documents that an iPhone with the Wallet developer profile ("Wallet and Apple mDL Developer Integrator", or
/// the Wallet identity developer profile in-app) answers with mock data carrying a real device signature and no issuer
/// signature. Such a response is encrypted to the relying party's own key (the test-key refusal does not see it). For
/// the formats Apple's wallet produces (`formats`), a document is mock data when
/// - issuerAuth's signature is an empty byte string or all zero bytes (no ECDSA or EdDSA signature is all zeros, so a
///   real signature that fails to verify never matches), whatever its x5chain holds (present, absent or untrusted), and
/// - its deviceSignature verified (the `device.authentication` line passed).
///
/// Every document of those formats gets an `issuer.mock_data` line right after its `document.structure` line: `pass`
/// (it carries an issuer signature), `skip` (no issuer signature, but the device signature did not verify either: not
/// recognised, the issuer and device lines say what failed), or for mock data `fail` (`issuer.mock_data`, the first
/// error of the document) outside test mode and `warn` in it. For mock data the `issuer.signature` failure it explains
/// becomes a `skip`: there is no signature to verify. Every other check stands, so in test mode a mock document whose
/// x5chain reaches the trust store and that passes every other check is released, under assurance `test`.
package struct MockDataRule: Sendable {
    /// The built-in formats it applies to: those Apple's wallet produces, in-app (`apple-app`) and Safari's Digital
    /// Credentials API (`annex-c`). A verifier built by a registry (`FormatRegistry.flows`) takes its descriptors' own.
    package static let formats = formats(of: .standard)

    /// The formats of `registry` whose descriptor says mock data applies.
    package static func formats(of registry: FormatRegistry) -> Set<VerificationReport.Format> {
        Set(registry.descriptors.filter(\.mockDataApplies).map(\.format))
    }

    let testMode: Bool

    /// The rule for `format`; nil for a format outside `formats`.
    package init?(format: VerificationReport.Format, testMode: Bool, formats: Set<VerificationReport.Format> = Self.formats) {
        guard formats.contains(format) else { return nil }
        self.testMode = testMode
    }

    /// Whether an issuerAuth signature, as received, is no signature: empty or all zero bytes (no ECDSA or EdDSA
    /// signature is all zeros).
    package static func lacksIssuerSignature(_ signature: ArraySlice<UInt8>) -> Bool {
        signature.allSatisfy { $0 == 0 }
    }

    /// Reviews the lines of the documents of one DeviceResponse, as parsed (the first is `firstDocumentIndex`).
    package func review(_ log: inout CheckLog, documents: [Result<MdocDocument, VerificationError>], firstDocumentIndex: Int) {
        for (offset, parsed) in documents.enumerated() {
            guard case .success(let document) = parsed else { continue }
            review(&log, document: document, index: firstDocumentIndex + offset)
        }
    }

    /// What the rule found for one document, read before the log changes.
    private enum Finding {
        case signed
        case unsignedWithoutDevice
        /// Mock data; `signatureLine` is the `issuer.signature` failure it explains, if any.
        case mock(signatureLine: Int?)
    }

    private func review(_ log: inout CheckLog, document: MdocDocument, index: Int) {
        guard let structure = Self.lastLine(of: .documentStructure, document: index, in: log.checks),
              log.checks[structure].status == .pass else { return }
        let id = CheckID.issuerMockData
        switch Self.finding(log.checks, document: document, index: index) {
        case .signed:
            log.insert(CheckResult(id: id, status: .pass, detail: "issuerAuth carries an issuer signature", document: index), at: structure + 1)
        case .unsignedWithoutDevice:
            log.insert(CheckResult(id: id, status: .skip,
                                   detail: "issuerAuth carries no issuer signature, but no device signature verified either: not recognised "
                                       + "as mock data from a development device (see issuer.signature and device.authentication)",
                                   document: index), at: structure + 1)
        case .mock(let signatureLine):
            // The signature check failed only because there is no signature: said once, under issuer.mock_data.
            if let signatureLine {
                log.replace(at: signatureLine, with: CheckResult(
                    id: .issuerSignature, status: .skip, detail: "issuerAuth carries no signature to verify (see issuer.mock_data)",
                    clause: log.checks[signatureLine].clause, document: index))
            }
            log.insert(testMode
                ? CheckResult(id: id, status: .warn,
                              detail: "mock data from a development device (Apple's Wallet developer profile): the device signature "
                                  + "verifies, issuerAuth carries no issuer signature; accepted in test mode only, never as a real identity",
                              document: index)
                : CheckResult(id: id, status: .fail,
                              detail: "mock data from a development device (Apple's Wallet developer profile): the device signature verifies "
                                  + "but issuerAuth carries no issuer signature, so nothing vouches for the data and it cannot be trusted; "
                                  + "test the integration in test mode, and in production present an ID from a device without the developer "
                                  + "profile",
                              document: index, code: .issuerMockData),
                at: structure + 1)
        }
    }

    private static func finding(_ lines: [CheckResult], document: MdocDocument, index: Int) -> Finding {
        guard lacksIssuerSignature(document.issuerAuth.authenticator) else { return .signed }
        guard case .signature = document.deviceAuth,
              let device = lastLine(of: .deviceAuthentication, document: index, in: lines), lines[device].status == .pass
        else { return .unsignedWithoutDevice }
        guard let signature = lastLine(of: .issuerSignature, document: index, in: lines),
              lines[signature].status == .fail, lines[signature].code == .issuerSignatureInvalid else {
            return .mock(signatureLine: nil)
        }
        return .mock(signatureLine: signature)
    }

    /// The last line of check `id` for document `index`. Read by index, field by field: the rule runs on every
    /// document of its formats, and a closure over whole lines copied each one.
    private static func lastLine(of id: CheckID, document index: Int, in lines: [CheckResult]) -> Int? {
        var position = lines.endIndex
        while position > lines.startIndex {
            position -= 1
            if lines[position].document == index, lines[position].id == id { return position }
        }
        return nil
    }
}
