import CBOR
import CryptoCore

extension CBORValue {
    /// An `x5chain` header value (RFC 9360 §2): one certificate as a bstr, more as an array of them, leaf first.
    package static func x5chain(_ certificates: [Certificate]) -> CBORValue {
        certificates.count == 1 ? .bytes(certificates[0].derEncoded) : .array(certificates.map { .bytes($0.derEncoded) })
    }
}
