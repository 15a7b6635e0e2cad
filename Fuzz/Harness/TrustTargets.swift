import CBOR
import CryptoCore
import Foundation
import MdocModel
import MdocTesting
import MdocTrust
import TestSupport
import Verifier

/// Trust and revocation material a verifier reads from outside: certificates and CRLs (from an `x5chain` or a
/// distribution point), VICALs, and status-list / identifier-list tokens with their zlib-compressed lists.
extension FuzzTargets {
    static let pki = fixture { try TestPKI(seed: 7, at: Exchange.time) }

    /// 5. A DER certificate through parsing, every Annex B rule (as a document signer under the kit's IACA and as an
    /// IACA above the kit's signer) and chain building both ways; the same bytes as a CRL.
    static let x509 = FuzzTarget("x509", maxLength: 8 << 10,
                                 "Certificate(derEncoded:), Annex B rules, TrustStore.validate, CertificateRevocationList",
                                 seeds: x509Seeds) { input in
        let pki = Self.pki
        if let certificate = try? Certificate(derEncoded: input) {
            _ = AnnexBRule.deviations(documentSigner: certificate, iaca: pki.iaca)
            _ = AnnexBRule.deviations(documentSigner: pki.documentSigner, iaca: certificate)
            _ = pki.trustStore.validate(leaf: certificate, at: Exchange.time)
            _ = pki.trustStore.validate(leaf: pki.documentSigner, intermediates: [certificate], at: Exchange.time)
            _ = TrustStore(anchors: [certificate], allowNonSelfSignedAnchors: true).validate(leaf: pki.documentSigner, at: Exchange.time)
            _ = (certificate.description, certificate.serialNumber, certificate.subjectPublicKeyInfoSHA256, certificate.publicKeyAlgorithmOID)
        }
        if let crl = try? CertificateRevocationList(derEncoded: input) {
            _ = crl.isIssued(by: pki.iaca)
            _ = crl.revocationDate(of: pki.documentSigner)
        }
    }

    static func x509Seeds() throws -> [[UInt8]] {
        let exchange = appleExchange
        return [pki.iaca.derEncoded, pki.documentSigner.derEncoded, try AppleSampleVector.root().derEncoded,
                try AnnexDVector.iaca().derEncoded, try AnnexDVector.readerCertificate().derEncoded,
                exchange.response.revocation.crl.derEncoded]
    }

    /// 7a. A VICAL through the whole import (COSE_Sign1, x5chain, EKU, chain to the pinned root, signature, list,
    /// freshness) against the kit's VICAL root, and the same bytes as a bare list payload (mutations of a signed
    /// list never pass the signature, so the list parser is fed directly too).
    static let vicalBuilder = fixture { try VICALBuilder(seed: 7, at: Exchange.time) }

    static let vical = FuzzTarget("vical", maxLength: 64 << 10,
                                  "VICALVerification against a pinned root; VICAL(payload:); carried certificates",
                                  seeds: vicalSeeds) { input in
        do {
            _ = try VICALVerification(input, roots: [vicalBuilder.root], at: Exchange.time, previousIssueID: 2)
        } catch {
            Invariant.catalogued(error)
        }
        _ = try? VICALVerification.carriedCertificates(input)
        do {
            _ = try VICAL(payload: input[...])
        } catch {
            Invariant.catalogued(error)
        }
    }

    static func vicalSeeds() throws -> [[UInt8]] {
        let entries = [VICALBuilder.Entry(pki.iaca, docTypes: [DocType.mDL])]
        let signed = try vicalBuilder.build(entries: entries, issueID: 3, date: Exchange.time, nextUpdate: nil)
        var seeds = [signed, try bytes("TestVectors/trust/aamva-vical.cbor")]
        if let payload = try? CBORDecoder.decode(signed).array?[2].bytes { seeds.append(Array(payload)) }
        return seeds
    }

    /// 7c. A LoTE (ETSI TS 119 602) through the whole import (JAdES compact JWS or its JSON serialization, x5c, chain
    /// to the pinned root, signature, the list JSON with its ceilings, freshness, rollback), what its services would
    /// anchor under a docType map, and the same bytes as a bare list payload (a mutated signed list never passes its
    /// signature, so the list parser is fed directly too).
    static let loteBuilder = fixture { try LoTEBuilder(seed: 7, at: Exchange.time) }
    static let loteScope = LoTEScope([LoTEBuilder.pidIssuance: [DocType.mDL], LoTEBuilder.mdlListType: [DocType.mDL]])

    static let lote = FuzzTarget("lote", maxLength: 64 << 10,
                                 "LoTEVerification against a pinned root; LoTE(payload:); what the services anchor; carried certificates",
                                 seeds: loteSeeds) { input in
        do {
            let verified = try LoTEVerification(input, roots: [loteBuilder.root], at: Exchange.time, previousSequenceNumber: 2)
            _ = verified.decisions(scope: loteScope)
            for anchor in verified.anchors(scope: loteScope) { _ = verified.provenance(of: anchor) }
        } catch {
            Invariant.catalogued(error)
        }
        _ = try? LoTEVerification.carriedCertificates(input)
        do {
            let list = try LoTE(payload: input)
            _ = list.rollbackKey
            for service in list.services { _ = (loteScope.docTypes(for: service, in: list), LoTEVerification.status(of: service, at: Exchange.time)) }
        } catch {
            Invariant.catalogued(error)
        }
    }

    static func loteSeeds() throws -> [[UInt8]] {
        let signed = try loteBuilder.build(services: [.init([pki.iaca])], sequenceNumber: 3, issued: Exchange.time - 3600,
                                           nextUpdate: Exchange.time + 86_400)
        let payload = loteBuilder.payload(services: [.init([pki.iaca], status: LoTEBuilder.withdrawn, statusStartingTime: Exchange.time - 60)],
                                          sequenceNumber: 4, issued: Exchange.time - 3600, nextUpdate: Exchange.time + 86_400)
        let real = try bytes("TestVectors/trust/lote/ec-acceptance-wallet-providers-seq1.jwt")
        // The real list's payload too: signed under the EC's signer, the list itself never reaches the parser.
        let parts = real.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        let realPayload = parts.count == 3 ? Base64URL.decode(String(decoding: parts[1], as: UTF8.self)) : nil
        // The same signed list in the JWS JSON serializations, flattened and general, which the parser also reads.
        let pieces = signed.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        var json: [[UInt8]] = []
        if pieces.count == 3 {
            json.append(Array(#"{"protected":"\#(pieces[0])","payload":"\#(pieces[1])","signature":"\#(pieces[2])"}"#.utf8))
            json.append(Array(#"{"payload":"\#(pieces[1])","signatures":[{"protected":"\#(pieces[0])","signature":"\#(pieces[2])"}]}"#.utf8))
        }
        return [signed, real, payload.serializedBytes()] + (realPayload.map { [$0] } ?? []) + json
    }

    /// 7b. A status list or identifier list token (CWT) through parsing and list inflation, its certificates and
    /// signature; and the raw bytes through zlib and raw DEFLATE inflation with the product's ceiling.
    static let statusToken = FuzzTarget("status-token", maxLength: 16 << 10,
                                        "StatusToken (CWT, status/identifier list, zlib), Zlib.inflate with its ceiling",
                                        seeds: statusTokenSeeds) { input in
        do {
            let token = try StatusToken(input)
            _ = try? token.certificates()
            _ = token.isSigned(by: pki.documentSignerKey.publicKey)
            if case .statusList(let list) = token.content {
                for index: UInt64 in [0, 1, 17, 1 << 20, .max] { _ = list.status(at: index) }
            }
        } catch {
            Invariant.catalogued(error)
        }
        for raw in [false, true] {
            if let inflated = try? Zlib.inflate(input, limit: 1 << 20, raw: raw) {
                Invariant.require(inflated.count <= 1 << 20, "zlib inflated past its ceiling")
            }
        }
    }

    static func statusTokenSeeds() throws -> [[UInt8]] {
        let folder = "TestVectors/token-status-list/"
        return [VectorFiles.hex(folder + "status_list_cwt.hex"), VectorFiles.hex(folder + "referenced_token_cwt.hex"),
                Zlib.deflate(Array(repeating: 0x55, count: 4096)), Zlib.deflate(Array("identifier list".utf8), raw: true)]
            + appleExchange.response.revocation.tokens.values.sorted { $0.count < $1.count }
    }

    static func bytes(_ relative: String) throws -> [UInt8] {
        Array(try Data(contentsOf: VectorFiles.url(relative)))
    }
}
