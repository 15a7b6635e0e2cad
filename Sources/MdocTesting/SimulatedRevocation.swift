import CryptoCore
import Foundation
import Mdoc

/// The revocation material the kit issues with a response: the IACA's CRL (listing the Document Signer under the
/// `document-signer-revoked` fault) and, when the MSO names one, the status list token at its URI (signed by a
/// status list signer the IACA issued, or shaped by the status faults). `source` hands both to a verifier.
public struct SimulatedRevocation: Sendable {
    /// The IACA's CRL, listing the Document Signer only under the `documentSignerRevoked` fault.
    public let crl: CertificateRevocationList
    /// URI → token bytes (one list, at `SimulationOptions.statusList.uri`), as a server would fetch it.
    public let tokens: [String: [UInt8]]

    /// The CRL and the tokens as a verifier's source (the tokens parsed once).
    public let source: StaticRevocationSource

    init(pki: TestPKI, documentSigner: Certificate, options: SimulationOptions, faults: Set<Fault>) throws {
        let time = options.time
        let day: TimeInterval = 86_400
        var crl = CRLBuilder(thisUpdate: time - day, nextUpdate: time + 7 * day)
        if faults.contains(.documentSignerRevoked) { crl.revoked = [(documentSigner.serialNumber, time - day)] }
        let signedCRL = try crl.sign(issuer: pki.iaca, issuerKey: pki.iacaKey)
        self.crl = signedCRL
        let crlMaterial = RevocationMaterial(signedCRL, origin: "the kit's IACA CRL")

        guard let reference = options.statusList else {
            tokens = [:]
            source = try StaticRevocationSource(crls: [crlMaterial])
            return
        }
        var builder = StatusListTokenBuilder(
            uri: faults.contains(.statusListSubMismatch) ? reference.uri + "-other" : reference.uri,
            issuedAt: time - 3600, expires: faults.contains(.statusListExpired) ? time - 60 : time + day)
        if faults.contains(.statusRevoked) { builder.statuses[reference.index] = 1 }
        if faults.contains(.statusSuspended) { builder.statuses[reference.index] = 2 }
        let signerPKI = faults.contains(.statusListUntrusted) ? try TestPKI(seed: pki.seed.seed &+ 7_919, curve: pki.curve, at: time) : pki
        let signer = try signerPKI.issueStatusListSigner(at: time)
        let token = try builder.sign(chain: [signer.certificate], key: signer.key)
        tokens = [reference.uri: token]
        // As fetched from the MSO's URI, so the check sees (and reports) a token whose sub names another list.
        source = try StaticRevocationSource(crls: [crlMaterial], fetched: [reference.uri: RevocationMaterial(token, origin: reference.uri)])
    }
}

extension TestPKI {
    /// A status list signer the IACA issued (digitalSignature), deterministic from the seed.
    public func issueStatusListSigner(at time: Date) throws -> (certificate: Certificate, key: PrivateKey) {
        let key = try seed.key("status-list-signer/\(curve.rawValue)", curve: curve)
        let validity = Self.documentSignerValidity(at: time)
        let builder = CertificateBuilder(
            subject: [("C", country), ("ST", jurisdiction), ("O", "MdocTesting"), ("CN", "MdocTesting Status List Signer")],
            serialNumber: seed.serialNumber("status-list-signer"), notBefore: validity.start, notAfter: validity.end,
            publicKey: key.publicKey,
            extensions: [.keyUsage([.digitalSignature], critical: true), .subjectKeyIdentifier, .authorityKeyIdentifier])
        return (try builder.sign(issuer: iaca, issuerKey: iacaKey), key)
    }
}
