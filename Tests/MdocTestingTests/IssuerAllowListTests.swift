import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import Testing
import Verifier

/// The request's issuer allow-list (`RequestPolicy.allowedIssuers`): read and bounded, offered to the wallet narrowed
/// to the trust store, and enforced by `policy.issuer` in every format, with kit PKIs.
@Suite("Issuer allow-list: request policy, requests and policy.issuer")
struct IssuerAllowListTests {
    static let element = ElementID(NameSpace.mDL, "family_name")

    static func policy(_ allowed: [[UInt8]], docTypes: [String] = [DocType.mDL]) -> RequestPolicy {
        RequestPolicy(documents: docTypes.map { .init(docType: $0, nameSpaces: [NameSpace.mDL: ["family_name": false]]) },
                      allowedIssuers: allowed)
    }

    /// The document's issuer (seed 1) and another issuer the relying party also trusts (seed 2).
    static func pkis() throws -> (issuer: TestPKI, other: TestPKI) {
        (try TestPKI(seed: 1, at: Fixtures.time), try TestPKI(seed: 2, at: Fixtures.time))
    }

    static func keyID(_ pki: TestPKI) throws -> [UInt8] {
        try #require(IssuerIdentifiers.identifier(of: pki.iaca))
    }

    /// A kit response of `format` from `pki`'s issuer, verified through the format's flow with `policy` by a relying
    /// party trusting `anchors`.
    static func verify(_ format: ResponseFormat, pki: TestPKI, anchors: [Certificate], policy: RequestPolicy?) throws -> VerificationReport {
        let configuration = VerifierConfiguration(trustStore: TrustStore(anchors: anchors))
        let request = try SimulatedRequest(format, seed: 1, pki: pki, configuration: configuration)
        var options = Fixtures.options()
        options.elements = [element]
        let response = try MdocSimulator(pki: pki).simulate(request.target, options: options)
        return try request.verify(response, policy: policy, at: Fixtures.time)
    }

    enum Allowed: String, CaseIterable, CustomTestStringConvertible {
        case none, documentIssuer, otherIssuer, both
        var testDescription: String { rawValue }
    }

    static let formats: [ResponseFormat] = [.appleApp, .annexC, .openID4VP, .deviceResponse]

    @Test("policy.issuer: empty list → any trusted issuer; the document's issuer → verified; only another trusted issuer → policy.issuer_not_allowed",
          arguments: formats, Allowed.allCases)
    func enforced(format: ResponseFormat, allowed: Allowed) throws {
        let (issuer, other) = try Self.pkis()
        let list: [[UInt8]] = switch allowed {
        case .none: []
        case .documentIssuer: [try Self.keyID(issuer)]
        case .otherIssuer: [try Self.keyID(other)]
        case .both: [try Self.keyID(other), try Self.keyID(issuer)]
        }
        let report = try Self.verify(format, pki: issuer, anchors: [other.iaca, issuer.iaca], policy: Self.policy(list))
        let lines = report.checks.filter { $0.id == .policyIssuer }
        #expect(lines.count == 1)
        if allowed == .otherIssuer {
            #expect(!report.verified)
            #expect(report.errors.map(\.code) == [.policyIssuerNotAllowed], "\(report.errors)")
            #expect(lines.first?.status == .fail)
            #expect(lines.first?.detail.contains(Base64URL.encode(try Self.keyID(issuer))) == true, "names the issuer's identifier")
            #expect(report.documents.isEmpty, "a rejected response releases no element")
        } else {
            #expect(report.verified, "\(report.errors)")
            #expect(lines.first?.status == .pass)
            #expect(lines.first?.detail.contains(allowed == .none ? "no issuer allow-list" : "is on the request's allow-list") == true)
        }
    }

    @Test("a pinned document signer is named by its authorityKeyIdentifier (its IACA's key identifier), as requests offer it")
    func pinnedDocumentSigner() throws {
        let (issuer, other) = try Self.pkis()
        for (list, verified) in [([try Self.keyID(issuer)], true), ([try Self.keyID(other)], false)] {
            let configuration = VerifierConfiguration(
                trustStore: TrustStore(anchors: [issuer.documentSigner, other.iaca], allowNonSelfSignedAnchors: true))
            let request = try SimulatedRequest(.appleApp, seed: 1, pki: issuer, configuration: configuration)
            var options = Fixtures.options()
            options.elements = [Self.element]
            options.statusList = nil   // its signer chains to the IACA, which this store does not hold
            let response = try MdocSimulator(pki: issuer).simulate(request.target, options: options)
            let report = try request.verify(response, policy: Self.policy(list), at: Fixtures.time)
            #expect(report.verified == verified, "\(report.errors)")
            #expect(report.errors.map(\.code) == (verified ? [] : [.policyIssuerNotAllowed]))
        }
    }

    @Test("without a request policy policy.issuer is skipped; without a trusted chain it is skipped naming the chain")
    func skipped() throws {
        let (issuer, other) = try Self.pkis()
        let noPolicy = try Self.verify(.appleApp, pki: issuer, anchors: [issuer.iaca], policy: nil)
        #expect(noPolicy.checks.filter { $0.id == .policyIssuer }.map(\.status) == [.skip])
        // The operator removed the document's anchor after the request named it: the chain fails, and the allow-list
        // never makes an anchor trusted.
        let removed = try Self.verify(.appleApp, pki: issuer, anchors: [other.iaca], policy: Self.policy([try Self.keyID(issuer)]))
        #expect(!removed.verified)
        #expect(removed.errors.map(\.code) == [.issuerChainUntrusted])
        let line = try #require(removed.checks.first { $0.id == .policyIssuer })
        #expect(line.status == .skip && line.detail.contains("issuer.certificate_chain"), "\(line.detail)")
    }

    @Test("JSON: base64url and colon-separated hex read, base64url written, absent when empty; a bad entry names its index")
    func json() throws {
        let text = #"{"documents":[{"docType":"org.iso.18013.5.1.mDL","nameSpaces":{"org.iso.18013.5.1":{"family_name":false}}}],"allowedIssuers":["AQID","0a:FF:10"]}"#
        let policy = try JSONDecoder().decode(RequestPolicy.self, from: Data(text.utf8))
        #expect(policy.allowedIssuers == [[1, 2, 3], [0x0A, 0xFF, 0x10]])
        let encoded = String(decoding: try JSONEncoder().encode(policy), as: UTF8.self)
        #expect(encoded.contains(#""allowedIssuers":["AQID","Cv8Q"]"#))
        #expect(try JSONDecoder().decode(RequestPolicy.self, from: Data(encoded.utf8)) == policy)
        let bare = Self.policy([])
        #expect(!String(decoding: try JSONEncoder().encode(bare), as: UTF8.self).contains("allowedIssuers"))
        for bad in ["not base64!", "AQ+D", "0a:f", "0a::ff", "0a:fg", "AQ=D"] {
            let body = text.replacingOccurrences(of: "\"0a:FF:10\"", with: "\"\(bad)\"")
            do {
                _ = try JSONDecoder().decode(RequestPolicy.self, from: Data(body.utf8))
                Issue.record("\(bad) was read")
            } catch DecodingError.dataCorrupted(let context) {
                #expect(context.debugDescription.hasPrefix("allowedIssuers[1] is neither base64url nor hex"), "\(context.debugDescription)")
                #expect(!context.debugDescription.contains(bad))
            }
        }
    }

    @Test("bounds: 1,000 identifiers of 64 bytes pass; 1,001, a 65-byte or empty one, and a repeat are input.malformed")
    func bounds() throws {
        let thousand = (0..<1000).map { index in [UInt8(index >> 8), UInt8(index & 0xFF)] + [UInt8](repeating: 7, count: 62) }
        try Self.policy(thousand).validate()
        let cases: [([[UInt8]], String)] = [
            (thousand + [[9]], "names 1001 issuers; at most 1000"),
            ([[1], [UInt8](repeating: 1, count: 65)], "allowedIssuers[1] is 65 bytes"),
            ([[]], "allowedIssuers[0] is 0 bytes"),
            ([[1, 2], [3], [1, 2]], "allowedIssuers[2] repeats allowedIssuers[0]"),
        ]
        for (list, message) in cases {
            #expect(throws: VerificationError.self) { try Self.policy(list).validate() }
            do {
                try Self.policy(list).validateAllowedIssuers()
            } catch {
                #expect(error.code == .inputMalformed && error.message.contains(message), "\(error.message)")
            }
        }
        #expect(IssuerIdentifiers.parse("0a:ff") == IssuerIdentifiers.parse("Cv8"))
    }

    @Test("narrowed: the allow-list intersected per docType with the anchors that may anchor it; an unknown identifier or a docType left without one is input.malformed")
    func narrowed() throws {
        let (issuer, other) = try Self.pkis()
        let third = try TestPKI(seed: 3, at: Fixtures.time)
        let (a, b, c) = (try Self.keyID(issuer), try Self.keyID(other), try Self.keyID(third))
        // `other` may anchor photo IDs only.
        let store = TrustStore(anchors: [issuer.iaca, other.iaca],
                               provenance: [other.iaca.sha256Fingerprint: AnchorProvenance(docTypes: [DocType.photoID])])
        #expect(try IssuerIdentifiers.narrowed(Self.policy([]), in: store) == nil)
        #expect(try IssuerIdentifiers.narrowed(Self.policy([a]), in: store) == [DocType.mDL: [a]])
        let both = try IssuerIdentifiers.narrowed(Self.policy([b, a], docTypes: [DocType.mDL, DocType.photoID]), in: store)
        #expect(both == [DocType.mDL: [a], DocType.photoID: [a, b].sorted { $0.lexicographicallyPrecedes($1) }])

        func refusal(_ policy: RequestPolicy) -> String? {
            do {
                _ = try IssuerIdentifiers.narrowed(policy, in: store)
                return nil
            } catch {
                #expect(error.code == .inputMalformed)
                return error.message
            }
        }
        // An identifier of no anchor in the store (an issuer the operator never trusted, or has since removed).
        #expect(refusal(Self.policy([a, c]))?.contains("allowedIssuers[1] (\(Base64URL.encode(c))) is the key identifier of no trust anchor") == true)
        // `other` may not anchor mDLs: its identifier alone leaves the mDL with no allowed issuer (an empty list would mean any).
        #expect(refusal(Self.policy([b]))?.contains("allowedIssuers[0]") == true)
        #expect(refusal(Self.policy([b], docTypes: [DocType.photoID, DocType.mDL]))?.contains("no entry of allowedIssuers may anchor docType") == true)
    }

    @Test("requests carry the narrowed list: Apple issuerIdentifiers, Annex C requestInfo (even when the store's list is off), OpenID4VP trusted_authorities aki")
    func requests() throws {
        let (issuer, other) = try Self.pkis()
        let (a, b) = (try Self.keyID(issuer), try Self.keyID(other))
        let configuration = VerifierConfiguration(trustStore: TrustStore(anchors: [issuer.iaca, other.iaca]))
        let environment = FlowEnvironment(configuration: configuration, recipientKeys: [try PrivateKey.generate(.p256)],
                                          merchantID: "merchant.example", teamID: "TEAM")
        let flows = try FormatRegistry.flows(environment)
        func flow(_ format: ResponseFormat) throws -> any RequestFlow { try #require(flows.first { $0.format == format }) }
        let policy = Self.policy([b])

        let apple = try flow(.appleApp).prepare(policy: policy, origin: nil)
        let offered = try #require(apple.publicFields.first { $0.0 == "issuerIdentifiers" }?.1)
        #expect(offered.serialized() == #"{"\#(DocType.mDL)":["\#(Base64URL.encode(b))"]}"#)
        let whole = try flow(.appleApp).prepare(policy: Self.policy([]), origin: nil).publicFields.first { $0.0 == "issuerIdentifiers" }?.1
        #expect(whole?.serialized().contains(Base64URL.encode(a)) == true && whole?.serialized().contains(Base64URL.encode(b)) == true)

        let annexC = try flow(.annexC).prepare(policy: policy, origin: "https://shop.example")
        guard case .object(let data) = try #require(annexC.publicFields.first { $0.0 == "data" }?.1),
              case .string(let text) = try #require(data.first { $0.0 == "deviceRequest" }?.1)
        else { Issue.record("no deviceRequest"); return }
        let deviceRequest = try DeviceRequest(decoding: try #require(Base64URL.decode(text)))
        #expect(deviceRequest.docRequests.map(\.itemsRequest.issuerIdentifiers) == [[b]])

        let openID4VP = try flow(.openID4VP).prepare(policy: policy, origin: "https://shop.example")
        let serialized = try #require(openID4VP.publicFields.first { $0.0 == "data" }?.1).serialized()
        #expect(serialized.contains(#""trusted_authorities":[{"type":"aki","values":["\#(Base64URL.encode(b))"]}]"#), "\(serialized)")
        let plain = try flow(.openID4VP).prepare(policy: Self.policy([]), origin: "https://shop.example")
        #expect(try #require(plain.publicFields.first { $0.0 == "data" }?.1).serialized().contains("trusted_authorities") == false)

        for format in [ResponseFormat.appleApp, .annexC, .openID4VP] {
            #expect(throws: VerificationError.self, "\(format)") {
                try flow(format).prepare(policy: Self.policy([[1, 2, 3]]), origin: "https://shop.example")
            }
        }
    }
}
