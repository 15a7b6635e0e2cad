import CBOR
import CryptoCore
import Foundation
import Mdoc

/// Builds a Status List Token in CWT form (draft-ietf-oauth-status-list §5.2): COSE_Sign1 with protected
/// `{1: alg, 16: "application/statuslist+cwt"}`, x5chain in the unprotected header, and the claims
/// `{2: sub, 6: iat, 4: exp, 65534: ttl, 65533: {"bits", "lst": zlib}}`.
public struct StatusListTokenBuilder: Sendable {
    /// The list's URI, written as the token's `sub` (claim 2).
    public var uri: String
    /// Bits per status (1, 2, 4 or 8); 2 by default.
    public var bits = 2
    /// Number of statuses in the list; 1024 by default.
    public var entries = 1024
    /// Statuses by index; all other entries are 0 (VALID).
    public var statuses: [UInt64: UInt8] = [:]
    /// The token's `iat` (claim 6), written in whole seconds.
    public var issuedAt: Date
    /// The token's `exp` (claim 4), written in whole seconds; nil leaves it out.
    public var expires: Date?
    /// The token's `ttl` (claim 65534) in seconds; 3600 by default, nil leaves it out.
    public var timeToLive: UInt64? = 3600

    /// Creates a builder for a list at `uri` in which every entry is VALID.
    public init(uri: String, issuedAt: Date, expires: Date?) {
        self.uri = uri
        self.issuedAt = issuedAt
        self.expires = expires
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
        var claims: [(CBORValue, CBORValue)] = [(.int(2), .text(uri)), (.int(6), .unsigned(UInt64(issuedAt.timeIntervalSince1970)))]
        if let expires { claims.append((.int(4), .unsigned(UInt64(max(expires.timeIntervalSince1970, 0))))) }
        if let timeToLive { claims.append((.int(65534), .unsigned(timeToLive))) }
        claims.append((.int(65533), .map([(.text("bits"), .unsigned(UInt64(bits))), (.text("lst"), .bytes(Zlib.deflate(packed)))])))
        let payload = CBOREncoder.encode(.map(claims))
        let x5chain: CBORValue = chain.count == 1 ? .bytes(chain[0].derEncoded) : .array(chain.map { .bytes($0.derEncoded) })
        let message = try COSEBuilder.sign1(payload: payload, signedPayload: payload, key: key,
                                            protectedExtra: [(.int(16), .text(StatusToken.statusListType))],
                                            unprotected: [(.int(33), x5chain)])
        return CBOREncoder.encode(.tagged(18, message))
    }
}
