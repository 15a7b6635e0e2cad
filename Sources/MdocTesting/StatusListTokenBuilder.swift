import CBOR
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTrust

/// Builds a Status List Token or an Identifier List Token in CWT form (draft-ietf-oauth-status-list §5.2): COSE_Sign1
/// with protected `{1: alg, 16: typ}`, x5chain in the unprotected header, and the claims
/// `{2: sub, 6: iat, 4: exp, 65534: ttl, 65533: {"bits", "lst": zlib}}` (an identifier list carries
/// `65530: {id: {"status": uint}}` instead of 65533).
public struct StatusListTokenBuilder: Sendable {
    /// The list's URI, written as the token's `sub` (claim 2).
    public var uri: String
    /// Bits per status (1, 2, 4 or 8); 2 by default.
    public var bits = 2
    /// Number of statuses in the list; 1024 by default.
    public var entries = 1024
    /// Statuses by index; all other entries are 0 (VALID).
    public var statuses: [UInt64: UInt8] = [:]
    /// When set, the token is an Identifier List Token listing these ids and statuses (claim 65530) instead of a
    /// status list; see `identifierList(uri:statuses:issuedAt:expires:)`.
    public var identifiers: [[UInt8]: UInt64]?
    /// The token's `iat` (claim 6), written in whole seconds.
    public var issuedAt: Date
    /// The token's `exp` (claim 4), written in whole seconds; nil leaves it out.
    public var expires: Date?
    /// The token's `ttl` (claim 65534) in seconds; 3600 by default, nil leaves it out.
    public var timeToLive: UInt64? = 3600
    /// The protected `typ` (label 16): `StatusToken.statusListType` by default; nil leaves it out.
    public var type: String? = StatusToken.statusListType
    /// Claims written as given, in place of the built claim with the same key or after the others (for tokens with
    /// malformed claims: a float or negative `exp`, a text `ttl`, …).
    public var claimOverrides: [Int64: CBORValue] = [:]

    /// Creates a builder for a list at `uri` in which every entry is VALID.
    public init(uri: String, issuedAt: Date, expires: Date?) {
        self.uri = uri
        self.issuedAt = issuedAt
        self.expires = expires
    }

    /// A builder for an Identifier List Token at `uri` (typ `application/identifierlist+cwt`) listing `statuses`.
    public static func identifierList(uri: String, statuses: [[UInt8]: UInt64], issuedAt: Date, expires: Date?) -> StatusListTokenBuilder {
        var builder = StatusListTokenBuilder(uri: uri, issuedAt: issuedAt, expires: expires)
        builder.identifiers = statuses
        builder.type = StatusToken.identifierListType
        return builder
    }

    /// The packed list: status i in byte i·bits/8 at bit offset (i mod (8/bits))·bits.
    public var packed: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: (entries * bits + 7) / 8)
        let perByte = 8 / bits
        for (index, status) in statuses where index < UInt64(entries) {
            let mask = UInt8((1 << bits) - 1)
            bytes[Int(index) / perByte] |= (status & mask) << UInt8(Int(index) % perByte * bits)
        }
        return bytes
    }

    /// The signed token; `chain` is the signer's x5chain, signer first.
    public func sign(chain: [Certificate], key: PrivateKey) throws -> [UInt8] {
        var claims: [(Int64, CBORValue)] = [(2, .text(uri)), (6, .unsigned(UInt64(max(issuedAt.timeIntervalSince1970, 0))))]
        if let expires { claims.append((4, .unsigned(UInt64(max(expires.timeIntervalSince1970, 0))))) }
        if let timeToLive { claims.append((65534, .unsigned(timeToLive))) }
        if let identifiers {
            let entries = identifiers.sorted { $0.key.lexicographicallyPrecedes($1.key) }
                .map { (CBORValue.bytes($0.key), CBORValue.map([(.text("status"), .unsigned($0.value))])) }
            claims.append((65530, .map(entries)))
        } else {
            claims.append((65533, .map([(.text("bits"), .unsigned(UInt64(bits))), (.text("lst"), .bytes(Zlib.deflate(packed)))])))
        }
        for (key, value) in claimOverrides.sorted(by: { $0.key < $1.key }) {
            if let position = claims.firstIndex(where: { $0.0 == key }) {
                claims[position].1 = value
            } else {
                claims.append((key, value))
            }
        }
        let payload = CBOREncoder.encode(.map(claims.map { (.int($0.0), $0.1) }))
        let message = try COSEBuilder.sign1(payload: payload, signedPayload: payload, key: key,
                                            protectedExtra: type.map { [(.int(16), .text($0))] } ?? [],
                                            unprotected: [(.int(33), .x5chain(chain))])
        return CBOREncoder.encode(.tagged(18, message))
    }
}
