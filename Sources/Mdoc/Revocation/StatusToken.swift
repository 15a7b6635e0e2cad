import CBOR
import CryptoCore
import Foundation

/// A Status List Token or Identifier List Token in CWT form (draft-ietf-oauth-status-list §5.2; ISO/IEC 18013-5
/// second edition §9.1.2.6): a COSE_Sign1 (tag 18, optionally inside CWT tag 61) whose payload is the claims map.
/// Parsing checks only the shape; `StatusCheck` decides whether to trust it (signer, `sub`, `exp`).
public struct StatusToken: Sendable {
    public static let statusListType = "application/statuslist+cwt"
    /// Largest inflated status list accepted (a real list is at most a few MB).
    public static let maxListBytes = 16 << 20

    enum Claim {
        static let subject: Int64 = 2
        static let expires: Int64 = 4
        static let issuedAt: Int64 = 6
        static let identifierList: Int64 = 65530
        static let statusList: Int64 = 65533
        static let timeToLive: Int64 = 65534
    }
    static let typeLabel: Int64 = 16

    public enum Content: Sendable {
        case statusList(StatusList)
        /// id → status; an id absent from the list is VALID.
        case identifierList([[UInt8]: UInt64])
    }

    let message: COSEMessage
    public let subject: String
    public let issuedAt: Date?
    public let expires: Date?
    /// Seconds a fetched copy may be reused.
    public let timeToLive: UInt64?
    public let type: String?
    public let content: Content

    public init(_ bytes: [UInt8], listLimit: Int = maxListBytes) throws(VerificationError) {
        let (message, claims) = try Self.parse(bytes)
        guard let subject = claims[intKey: Claim.subject]?.text else { throw Self.malformed("the token has no text `sub` (2) claim") }
        self.message = message
        self.subject = subject
        self.issuedAt = claims[intKey: Claim.issuedAt]?.uint.map { Date(timeIntervalSince1970: Double($0)) }
        self.expires = claims[intKey: Claim.expires]?.uint.map { Date(timeIntervalSince1970: Double($0)) }
        self.timeToLive = claims[intKey: Claim.timeToLive]?.uint
        self.type = message.header(Self.typeLabel)?.text
        if let list = claims[intKey: Claim.statusList] {
            content = .statusList(try StatusList(decoding: list, limit: listLimit))
        } else if let list = claims[intKey: Claim.identifierList] {
            content = .identifierList(try Self.identifiers(list))
        } else {
            throw Self.malformed("the token has neither a status_list (65533) nor an identifier_list (65530) claim")
        }
    }

    /// The `sub` claim, to match a token file to the URI an MSO names.
    public static func subject(of bytes: [UInt8]) throws(VerificationError) -> String {
        guard let subject = try parse(bytes).claims[intKey: Claim.subject]?.text else { throw malformed("the token has no text `sub` (2) claim") }
        return subject
    }

    /// The certificates of `x5chain` (label 33), signer first; empty when the token names its key otherwise.
    public func certificates() throws(VerificationError) -> [Certificate] {
        guard let node = message.header(COSEHeaderLabel.x5chain) else { return [] }
        let ders = node.bytes.map { [$0] } ?? node.array?.compactMap(\.bytes) ?? []
        guard !ders.isEmpty, ders.count == (node.array?.count ?? 1), ders.count <= 8 else {
            throw Self.malformed("x5chain is not 1 to 8 DER certificates")
        }
        var chain: [Certificate] = []
        for (index, der) in ders.enumerated() {
            guard let certificate = try? Certificate(derEncoded: der) else { throw Self.malformed("x5chain[\(index)] is not a DER certificate") }
            chain.append(certificate)
        }
        return chain
    }

    /// True when the signature verifies with `key` under the protected `alg`.
    public func isSigned(by key: PublicKey) -> Bool {
        guard message.headerProblem(understood: COSEHeaderLabel.processedInIssuerAuth.union([Self.typeLabel])) == nil,
              let identifier = message.algorithmIdentifier, let algorithm = COSEAlgorithm(rawValue: identifier),
              let parameters = algorithm.signatureParameters, parameters.curves.contains(key.curve),
              let payload = message.payload
        else { return false }
        return key.isValidSignature(message.authenticator, for: message.toBeAuthenticated(context: "Signature1", payload: payload),
                                    digest: parameters.digest)
    }

    static func parse(_ bytes: [UInt8]) throws(VerificationError) -> (message: COSEMessage, claims: CBORItem) {
        let item: CBORItem
        do {
            item = try CBORDecoder.decode(bytes)
        } catch {
            throw malformed("not CBOR: \(error)")
        }
        var node = item
        if let (tag, inner) = item.tag, tag == 61 { node = inner }  // CWT tag (RFC 8392 §6)
        let message: COSEMessage
        do {
            message = try COSEMessage(node, tag: COSETag.sign1)
        } catch {
            throw malformed("not a COSE_Sign1: \(error)")
        }
        guard let payload = message.payload else { throw malformed("the COSE_Sign1 payload is detached") }
        let claims: CBORItem
        do {
            claims = try CBORDecoder.decode(payload)
        } catch {
            throw malformed("the payload is not a CWT claims map: \(error)")
        }
        guard claims.map != nil else { throw malformed("the payload is not a CWT claims map") }
        return (message, claims)
    }

    static func identifiers(_ node: CBORItem) throws(VerificationError) -> [[UInt8]: UInt64] {
        guard let entries = node.map else { throw malformed("identifier_list is not a map") }
        var statuses: [[UInt8]: UInt64] = [:]
        for entry in entries {
            guard let id = entry.key.bytes, let status = entry.value["status"]?.uint else {
                throw malformed("identifier_list is not {id (bstr) → {\"status\": uint}}")
            }
            statuses[Array(id)] = status
        }
        return statuses
    }

    static func malformed(_ what: String) -> VerificationError { VerificationError(.inputMalformed, "status token: \(what)") }
}
