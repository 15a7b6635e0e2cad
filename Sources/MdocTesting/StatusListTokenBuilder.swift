import CBOR
import CryptoCore
import Foundation
import Mdoc

/// Builds a Status List Token in CWT form (draft-ietf-oauth-status-list §5.2): COSE_Sign1 with protected
/// `{1: alg, 16: "application/statuslist+cwt"}`, x5chain in the unprotected header, and the claims
/// `{2: sub, 6: iat, 4: exp, 65534: ttl, 65533: {"bits", "lst": zlib}}`.
public struct StatusListTokenBuilder: Sendable {
    public var uri: String
    public var bits = 2
    public var entries = 1024
    /// index → status (every other entry is 0, VALID).
    public var statuses: [UInt64: UInt8] = [:]
    public var issuedAt: Date
    public var expires: Date?
    public var timeToLive: UInt64? = 3600

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
