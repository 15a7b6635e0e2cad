import CBOR
import CryptoCore
import Foundation
import MdocModel

/// A Status List Token or Identifier List Token in CWT form (draft-ietf-oauth-status-list §5.2; ISO/IEC 18013-5
/// second edition §9.1.2.6): a COSE_Sign1 (tag 18, optionally inside CWT tag 61) whose payload is the claims map.
/// Parsing checks the shape (and inflates the list once); `StatusCheck` decides whether to trust it (signer, `typ`,
/// `sub`, `iat`, `exp`) at each verification.
public struct StatusToken: Sendable {
    /// The `typ` (protected header label 16) of a Status List Token.
    public static let statusListType = "application/statuslist+cwt"
    /// The `typ` (protected header label 16) of an Identifier List Token.
    public static let identifierListType = "application/identifierlist+cwt"
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

    /// The list a token carries.
    public enum Content: Sendable {
        /// A Status List (claim 65533), addressed by the index in the MSO's `status_list`.
        case statusList(StatusList)
        /// An Identifier List (claim 65530), id → status; an id absent from the list is VALID.
        case identifierList([[UInt8]: UInt64])
    }

    let message: COSEMessage
    /// SHA-256 of the token's bytes, a cache key.
    public let sha256Fingerprint: [UInt8]
    /// The `sub` (2) claim: the URI the token is for, which the check matches against the MSO's `uri`.
    public let subject: String
    /// The `exp` (4) claim, if present (at most 9999-12-31T23:59:59Z).
    public let expires: Date?
    /// The `iat` (6) claim, if present (at most 9999-12-31T23:59:59Z).
    public let issuedAt: Date?
    /// Seconds a fetched copy may be reused: the `ttl` (65534) claim, if present (a fraction rounded down, a value
    /// past `UInt64.max` held as `UInt64.max`; the reader bounds it).
    public let timeToLive: UInt64?
    /// The protected header's `typ` (label 16) when it is text; a `typ` only in the unprotected header is not read.
    public let type: String?
    /// The status list or identifier list the token carries.
    public let content: Content

    /// Parses a token, inflating its list once; the signature and the signer are not checked here.
    ///
    /// - Parameters:
    ///   - bytes: The token: a COSE_Sign1, optionally inside CWT tag 61.
    ///   - listLimit: The largest inflated status list accepted, in bytes.
    /// - Throws: `input.malformed` when the bytes are not a COSE_Sign1 with an attached CWT claims map, a header is
    ///   misplaced or not understood, `sub` is missing, `exp`, `iat` or `ttl` is not a NumericDate (an unsigned
    ///   integer or a finite, non-negative float, RFC 8392), `exp` or `iat` is after the year 9999, or there is no
    ///   well-formed list claim; `status.invalid` for a status list of another shape or over `listLimit`.
    public init(_ bytes: [UInt8], listLimit: Int = maxListBytes) throws(VerificationError) {
        let (message, claims) = try Self.parse(bytes)
        guard let subject = claims[intKey: Claim.subject]?.text else { throw Self.malformed("the token has no text `sub` (2) claim") }
        // Claims are read in separate functions: inline here, Swift 6.3.1's optimizer crashed (CopyPropagation).
        let content = try Self.content(of: claims, listLimit: listLimit)
        let expires = try Self.numericDate(claims, Claim.expires, "exp", upTo: Self.latestDate)
        let issuedAt = try Self.numericDate(claims, Claim.issuedAt, "iat", upTo: Self.latestDate)
        let timeToLive = try Self.numericDate(claims, Claim.timeToLive, "ttl", upTo: .infinity)
        self.message = message
        self.sha256Fingerprint = Digest.hash(.sha256, bytes)
        self.subject = subject
        self.expires = expires.map { Date(timeIntervalSince1970: $0) }
        self.issuedAt = issuedAt.map { Date(timeIntervalSince1970: $0) }
        self.timeToLive = timeToLive.map { $0 >= 0x1p64 ? UInt64.max : UInt64($0.rounded(.down)) }
        self.type = message.protectedHeader.first { $0.key.int == Self.typeLabel }?.value.text
        self.content = content
    }

    /// The latest `exp` or `iat` accepted: 9999-12-31T23:59:59Z. Later ones are malformed, so that every reader can
    /// print and compare them as calendar dates.
    static let latestDate: Double = 253_402_300_799

    /// A NumericDate claim (RFC 8392 §2): an unsigned integer or a finite, non-negative float of any precision, in
    /// seconds, at most `limit`; nil when absent. A negative integer, a tag, NaN, an infinity or any other type is
    /// malformed.
    @inline(never)
    static func numericDate(_ claims: CBORItem, _ key: Int64, _ name: String, upTo limit: Double) throws(VerificationError) -> Double? {
        guard let item = claims[intKey: key] else { return nil }
        let value: Double
        if let integer = item.uint {
            value = Double(integer)
        } else if let float = item.float, float.isFinite, float >= 0 {
            value = float
        } else {
            throw malformed("`\(name)` (\(key)) is not a NumericDate (an unsigned integer or a finite, non-negative float)")
        }
        guard value <= limit else { throw malformed("`\(name)` (\(key)) is after the year 9999") }
        return value
    }

    static func content(of claims: CBORItem, listLimit: Int) throws(VerificationError) -> Content {
        if let list = claims[intKey: Claim.statusList] {
            return .statusList(try StatusList(decoding: list, limit: listLimit))
        }
        if let list = claims[intKey: Claim.identifierList] {
            return .identifierList(try identifiers(list))
        }
        throw malformed("the token has neither a status_list (65533) nor an identifier_list (65530) claim")
    }

    /// The certificates of `x5chain`, signer first; empty when the token names its key otherwise.
    ///
    /// - Throws: `input.malformed` when the `x5chain` is not well-formed.
    public func certificates() throws(VerificationError) -> [Certificate] {
        do {
            return try message.x5chainCertificates() ?? []
        } catch {
            throw Self.malformed(error.description)
        }
    }

    /// True when the signature verifies with `key` under the protected `alg`, over the payload as received.
    public func isSigned(by key: PublicKey) -> Bool {
        guard let payload = message.payload else { return false }
        return message.verifySignature(with: key, payload: payload) == .valid
    }

    static func parse(_ bytes: [UInt8]) throws(VerificationError) -> (message: COSEMessage, claims: CBORItem) {
        let message: COSEMessage
        do {
            // 61: the CWT tag (RFC 8392 §6).
            message = try COSEMessage.sign1(bytes, understood: [COSEHeaderLabel.algorithm, COSEHeaderLabel.x5chain, typeLabel], outerTag: 61)
        } catch {
            throw malformed(error.description)
        }
        guard let payload = message.payload else { throw malformed("the COSE_Sign1 payload is detached") }
        let claims: CBORItem
        do {
            claims = try CBORDecoder.decode(payload)
        } catch {
            throw malformed("the payload is not a CWT claims map: \(error)")
        }
        guard claims.isMap else { throw malformed("the payload is not a CWT claims map") }
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
