import CBOR
import CryptoCore
import KitCertificates
import Foundation
import Mdoc
import MdocModel
import MdocTrust

/// Builds VICALs (ISO/IEC 18013-5 Annex C) signed by a seeded test trust-list operator: a root and a VICAL signer
/// (EKU 1.0.18013.5.1.8) whose chain goes in `x5chain`. For testing docType scope, rollback and staleness with lists
/// whose contents the test chooses.
public struct VICALBuilder: Sendable {
    /// The trust-list operator's root certificate, which a relying party trusts to accept the VICALs.
    public let root: Certificate
    /// The VICAL signer certificate the root issued (EKU 1.0.18013.5.1.8).
    public let signer: Certificate
    let signerKey: PrivateKey

    /// One IACA the list vouches for, with the docTypes it may anchor.
    public struct Entry: Sendable {
        /// The IACA certificate.
        public var certificate: Certificate
        /// The docTypes the IACA may anchor.
        public var docTypes: [String]

        /// Creates an entry for an IACA and the docTypes it may anchor.
        public init(_ certificate: Certificate, docTypes: [String]) {
            self.certificate = certificate
            self.docTypes = docTypes
        }
    }

    /// Creates the seeded root and VICAL signer, valid from 1 January of the year before `time` to 1 January five
    /// years after the year of `time`.
    ///
    /// Throws when a key cannot be derived or a certificate cannot be signed.
    public init(seed: UInt64 = 1, at time: Date = Date()) throws {
        let material = SeedMaterial(seed)
        let rootKey = try material.key("vical/root", curve: .p256)
        signerKey = try material.key("vical/signer", curve: .p256)
        let validity = DateInterval(start: TestPKI.startOfYear(time, offset: -1), end: TestPKI.startOfYear(time, offset: 5))
        root = try CertificateBuilder.rootCA(subject: [("C", "US"), ("O", "MdocTesting"), ("CN", "MdocTesting VICAL Root")],
                                             serialNumber: material.serialNumber("vical/root"), validity: validity, key: rootKey)
        signer = try CertificateBuilder.signer(
            subject: [("C", "US"), ("O", "MdocTesting"), ("CN", "MdocTesting VICAL Signer")], serialNumber: material.serialNumber("vical/signer"),
            validity: validity, key: signerKey.publicKey, extendedKeyUsage: .extendedKeyUsage([VICALVerification.signerEKU], critical: true),
            issuer: root, issuerKey: rootKey)
    }

    /// A signed VICAL: `COSE_Sign1` (untagged) with ES256, `x5chain` = [signer, root] in the unprotected header.
    /// `issueID` nil leaves `vicalIssueID` out (a list that cannot be ordered against others).
    public func build(entries: [Entry], issueID: UInt64?, date: Date, nextUpdate: Date?, provider: String = "MdocTesting") throws -> [UInt8] {
        func tdate(_ date: Date) -> CBORValue { .tagged(0, .text(RFC3339.format(date))) }
        var fields: [(CBORValue, CBORValue)] = [
            (.text("version"), .text("1.0")), (.text("vicalProvider"), .text(provider)), (.text("date"), tdate(date)),
        ]
        if let issueID { fields.append((.text("vicalIssueID"), .unsigned(issueID))) }
        if let nextUpdate { fields.append((.text("nextUpdate"), tdate(nextUpdate))) }
        fields.append((.text("certificateInfos"), .array(entries.map { entry in
            .map([
                (.text("certificate"), .bytes(entry.certificate.derEncoded)),
                (.text("serialNumber"), .bytes(entry.certificate.serialNumber)),
                (.text("ski"), .bytes(entry.certificate.subjectKeyIdentifier ?? [])),
                (.text("docType"), .array(entry.docTypes.map(CBORValue.text))),
            ])
        })))
        let payload = CBOREncoder.encode(.map(fields))
        let x5chain: CBORValue = .array([.bytes(signer.derEncoded), .bytes(root.derEncoded)])
        return CBOREncoder.encode(try COSEBuilder.sign1(payload: payload, signedPayload: payload, key: signerKey,
                                                        unprotected: [(.int(33), x5chain)]))
    }
}
