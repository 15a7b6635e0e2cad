import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import Verifier

/// Builds signed responses from a `TestPKI`: sample or given content, the requested disclosure, and faults.
public struct MdocSimulator: Sendable {
    /// The PKI whose Document Signer signs the responses.
    public let pki: TestPKI

    /// Creates a simulator that signs with `pki`.
    public init(pki: TestPKI) {
        self.pki = pki
    }

    /// Creates a simulator with the `TestPKI` from `seed`, on `curve`, valid at `time` (`TestPKI.shared`).
    ///
    /// Throws when the PKI cannot be made (`SimulationError.unsupported` for X25519).
    public init(seed: UInt64 = 1, curve: Curve = .p256, at time: Date = Date()) throws {
        self.pki = try TestPKI.shared(seed: seed, curve: curve, at: time)
    }

    /// A request for one document of `docType` asking for exactly the issuer-signed elements `build` disclosed.
    static func disclosedRequest(_ build: DocumentBuild, docType: String) -> RequestPolicy {
        RequestPolicy(documents: [.init(docType: docType, nameSpaces: Dictionary(grouping: build.disclosed, by: \.nameSpace).mapValues { ids in
            Dictionary(ids.map { ($0.identifier, false) }, uniquingKeysWith: { first, _ in first })
        })])
    }

    /// Builds a signed response for `target`: the Document, the faults in `options`, the transport wrapping, and the
    /// CRL and status list to verify it with.
    ///
    /// Repeated faults count once. Throws `SimulationError` when a fault does not apply to the target's format,
    /// two faults conflict, a fault needs the status list the options leave out, or an option is invalid; rethrows
    /// errors from key derivation, signing and sealing.
    public func simulate(_ target: ResponseTarget, options: SimulationOptions) throws -> SimulatedResponse {
        var faults: [Fault] = []
        for fault in options.faults where !faults.contains(fault) { faults.append(fault) }
        try Fault.validate(faults, format: target.format)
        if options.statusList == nil, let fault = faults.first(where: \.needsStatusList) {
            throw SimulationError.faultNotApplicable(fault, "it needs the MSO's status reference (SimulationOptions.statusList)")
        }
        var build = DocumentBuild(pki: pki, options: options, faults: Set(faults))
        var documents = [try build.document(target: target)]
        var request = options.request
        if faults.contains(.duplicateDocument) { documents.append(documents[0]) }
        if faults.contains(.duplicateDocType) {
            var second = DocumentBuild(pki: pki, options: options, faults: Set(faults))
            second.deviceKeyLabel = "second-device"
            documents.append(try second.document(target: target))
            // The relying party asked for one document of the docType, with every disclosed element.
            request = request ?? Self.disclosedRequest(build, docType: options.docType)
        }
        // The relying party asked for the disclosed issuer-signed elements, not the device-signed one.
        if faults.contains(.deviceSignedElementNotRequested) { request = request ?? Self.disclosedRequest(build, docType: options.docType) }
        let documentErrors: [(docType: String, code: Int64)] = faults.contains(.documentErrorsConflict) ? [(options.docType, Int64(0))] : []
        let deviceResponse = DeviceResponseBuilder.encode(documents: documents,
                                                          version: faults.contains(.responseVersionUnsupported) ? "2.0" : "1.0",
                                                          status: faults.contains(.responseStatusNonzero) ? 10 : 0,
                                                          documentErrors: documentErrors,
                                                          extraEntries: build.extraEntries, style: build.style)
        let (bytes, text) = try target.wallet.wrap(deviceResponse, faults: build.faults, extraEntries: build.extraEntries, pki: pki)
        let signer = build.documentSigner ?? pki.documentSigner
        let revocation = try SimulatedRevocation(pki: pki, documentSigner: signer, options: options, faults: Set(faults))
        return SimulatedResponse(
            format: target.format, docType: options.docType, bytes: bytes,
            textAnswer: text,
            deviceResponse: deviceResponse,
            transcript: target.transcript, readerKey: build.readerKeyForVerifier, faults: faults,
            expected: ExpectedOutcome.forFaults(faults, format: target.format, deviceAuthentication: build.deviceAuthentication),
            time: options.time, request: request, documentSigner: signer, intermediateCA: build.intermediateCA,
            disclosed: build.disclosed, revocation: revocation)
    }
}
