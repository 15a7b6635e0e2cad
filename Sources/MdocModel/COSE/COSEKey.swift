import CBOR
import CryptoCore

/// COSE_Key → public key (RFC 9052 §7, RFC 9053 §7). Supports EC2 (P-256/384/521 and brainpoolP256r1/P320r1/P384r1/
/// P512r1) and OKP (Ed25519, X25519).
package enum COSEKey {
    /// IANA COSE Elliptic Curves registry.
    static let curveIDs: [(id: Int64, curve: Curve)] = [
        (1, .p256), (2, .p384), (3, .p521), (4, .x25519), (6, .ed25519),
        (256, .brainpoolP256r1), (257, .brainpoolP320r1), (258, .brainpoolP384r1), (259, .brainpoolP512r1),
    ]

    private static let kty: Int64 = 1
    private static let alg: Int64 = 3
    private static let crv: Int64 = -1
    private static let x: Int64 = -2
    private static let y: Int64 = -3

    package static func publicKey(from item: CBORItem) throws(COSEParseError) -> PublicKey {
        guard item.isMap else { throw COSEParseError("COSE_Key is not a map") }
        guard let type = item[intKey: kty]?.int else { throw COSEParseError("COSE_Key has no kty") }
        guard let curveID = item[intKey: crv]?.int else { throw COSEParseError("COSE_Key has no crv") }
        guard let xBytes = item[intKey: x]?.bytes else { throw COSEParseError("COSE_Key has no x coordinate") }
        let curve = curveIDs.first { $0.id == curveID }?.curve
        switch (type, curve) {
        case (2, let curve?) where curve.isEC:
            guard let yBytes = item[intKey: y]?.bytes else {
                throw COSEParseError("COSE_Key EC2 without a y coordinate (compressed points are not accepted)")
            }
            do {
                return try PublicKey(curve: curve, x: Array(xBytes), y: Array(yBytes))
            } catch {
                throw COSEParseError("COSE_Key is not a valid \(curve.rawValue) point")
            }
        case (1, let curve?) where !curve.isEC:
            do {
                return try PublicKey(curve: curve, uncompressedPoint: Array(xBytes))
            } catch {
                throw COSEParseError("COSE_Key is not a valid \(curve.rawValue) key")
            }
        default:
            throw COSEParseError("unsupported COSE_Key kty \(type) / crv \(curveID)")
        }
    }

    /// The `alg` a COSE_Key restricts itself to, if it says.
    package static func algorithm(of item: CBORItem) -> Int64? { item[intKey: alg]?.int }

    /// COSE_Key for a public key we hold (used when we build structures: device keys, recipient keys).
    package static func encode(_ key: PublicKey) -> CBORValue {
        let point = key.uncompressedPoint
        let crvID = curveIDs.first { $0.curve == key.curve }?.id ?? 0
        guard key.curve.isEC else {
            return .map([(.int(kty), .int(1)), (.int(crv), .int(crvID)), (.int(x), .bytes(point))])
        }
        let size = key.curve.coordinateByteCount
        return .map([
            (.int(kty), .int(2)),
            (.int(crv), .int(crvID)),
            (.int(x), .bytes(Array(point[1 ..< 1 + size]))),
            (.int(y), .bytes(Array(point[(1 + size)...]))),
        ])
    }
}
