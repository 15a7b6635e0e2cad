import CryptoCore
import KitCertificates
import Foundation
import Mdoc
import MdocTrust

/// The revocation material the kit issues with a response: the IACA's CRL (listing the Document Signer under the
/// `document-signer-revoked` fault) and, when the MSO names them, the status list token and the identifier list token
/// at their URIs (signed by a status list signer the IACA issued, or shaped by the status faults). `source` hands them
/// to a verifier.
public struct SimulatedRevocation: Sendable {
    /// The IACA's CRL, listing the Document Signer only under the `documentSignerRevoked` fault.
    public let crl: CertificateRevocationList
    /// URI → token bytes (the status list at `SimulationOptions.statusList.uri`, the identifier list at
    /// `identifierListURI`), as a server would fetch them.
    public let tokens: [String: [UInt8]]
    /// The URI of the identifier list among `tokens`, when the MSO names one.
    public let identifierListURI: String?
    /// IACAs of other issuers the verifier must trust beside the response's own (the `status-list-other-issuer`
    /// fault's second issuer, whose Document Signer signs the status list); empty otherwise.
    public let otherIssuerAnchors: [Certificate]

    /// The CRL and the tokens as a verifier's source (the tokens parsed once).
    public let source: StaticRevocationSource

    init(pki: TestPKI, documentSigner: Certificate, options: SimulationOptions, faults: Set<Fault>) throws {
        let time = options.time
        let day: TimeInterval = 86_400
        var crl = faults.contains(.crlStale) ? CRLBuilder(thisUpdate: time - 10 * day, nextUpdate: time - day)
            : CRLBuilder(thisUpdate: time - day, nextUpdate: time + 7 * day)
        if faults.contains(.documentSignerRevoked) { crl.revoked = [(documentSigner.serialNumber, time - day)] }
        // Another key, the IACA's name: a CRL no verifier may take as the IACA's.
        let crlKey = faults.contains(.crlWrongSigner)
            ? try TestPKI.shared(seed: pki.seed.seed &+ 7_919, curve: pki.curve, at: time).iacaKey : pki.iacaKey
        let signedCRL = try crl.sign(issuer: pki.iaca, issuerKey: crlKey)
        self.crl = signedCRL
        let crlMaterial = RevocationMaterial(signedCRL, origin: "the kit's IACA CRL")

        var tokens: [String: [UInt8]] = [:]
        var otherAnchors: [Certificate] = []
        if let reference = options.statusList {
            var builder = StatusListTokenBuilder(
                uri: faults.contains(.statusListSubMismatch) ? reference.uri + "-other" : reference.uri,
                issuedAt: time - 3600, expires: faults.contains(.statusListExpired) ? time - 60 : time + day)
            if faults.contains(.statusRevoked) { builder.statuses[reference.index] = 1 }
            if faults.contains(.statusSuspended) { builder.statuses[reference.index] = 2 }
            // A float exp (RFC 8392 NumericDate) that passed 60 days ago; the half second keeps it a float.
            if faults.contains(.statusListExpiredFloatExp) { builder.claimOverrides[4] = .float(time.timeIntervalSince1970 - 60 * day + 0.5) }
            if faults.contains(.statusListIssuedInFuture) { builder.issuedAt = time + 3600 }
            if faults.contains(.statusListWrongType) { builder.type = "application/cwt" }
            var signer = try pki.issueStatusListSigner(at: time)
            if faults.contains(.statusListUntrusted) {
                signer = try TestPKI.shared(seed: pki.seed.seed &+ 7_919, curve: pki.curve, at: time).issueStatusListSigner(at: time)
            } else if faults.contains(.statusListOtherIssuer) {
                let other = try Self.otherIssuer(pki, at: time)
                signer = (other.documentSigner, other.documentSignerKey)
                otherAnchors.append(other.iaca)
            }
            tokens[reference.uri] = try builder.sign(chain: [signer.certificate], key: signer.key)
        }
        let identifiers = options.identifierListReference(faults: faults)
        if let reference = identifiers {
            let statuses: [[UInt8]: UInt64] = faults.contains(.identifierListRevoked) ? [reference.id: 1] : [:]
            let builder = StatusListTokenBuilder.identifierList(uri: reference.uri, statuses: statuses, issuedAt: time - 3600,
                                                               expires: time + day)
            let signer = try pki.issueStatusListSigner(at: time)
            tokens[reference.uri] = try builder.sign(chain: [signer.certificate], key: signer.key)
        }
        self.tokens = tokens
        self.identifierListURI = identifiers?.uri
        self.otherIssuerAnchors = otherAnchors
        // As fetched from the MSO's URIs, so the check sees (and reports) a token whose sub names another list.
        source = try StaticRevocationSource(crls: [crlMaterial], fetched: Dictionary(uniqueKeysWithValues: tokens.map { uri, token in
            (uri, RevocationMaterial(token, origin: uri))
        }))
    }

    /// The second issuer of the `status-list-other-issuer` fault: another IACA and Document Signer, from a seed
    /// derived from `pki`'s.
    static func otherIssuer(_ pki: TestPKI, at time: Date) throws -> TestPKI {
        try TestPKI.shared(seed: pki.seed.seed &+ 104_729, curve: pki.curve, at: time, country: pki.country, jurisdiction: pki.jurisdiction)
    }
}

extension TestPKI {
    /// A status list signer the IACA issued (digitalSignature), deterministic from the seed.
    public func issueStatusListSigner(at time: Date) throws -> (certificate: Certificate, key: PrivateKey) {
        let key = try seed.key("status-list-signer/\(curve.rawValue)", curve: curve)
        let validity = Self.documentSignerValidity(at: time)
        let certificate = try CertificateBuilder.signer(
            subject: [("C", country), ("ST", jurisdiction), ("O", "MdocTesting"), ("CN", "MdocTesting Status List Signer")],
            serialNumber: seed.serialNumber("status-list-signer"), validity: validity, key: key.publicKey, issuer: iaca, issuerKey: iacaKey)
        return (certificate, key)
    }
}
