import CryptoCore

/// LabeledExtract / LabeledExpand (RFC 9180 §4) for one suite_id.
struct LabeledKDF {
    let digest: DigestAlgorithm
    let suiteID: [UInt8]

    private static let version: StaticString = "HPKE-v1"

    /// LabeledExtract(salt, label, ikm) = Extract(salt, "HPKE-v1" || suite_id || label || ikm).
    func extract(salt: UnsafeRawBufferPointer, label: StaticString, ikm: UnsafeRawBufferPointer) -> [UInt8] {
        var labeledIKM = [UInt8]()
        labeledIKM.reserveCapacity(7 + suiteID.count + label.utf8CodeUnitCount + ikm.count)
        LabeledKDF.version.withUTF8Buffer { labeledIKM.append(contentsOf: $0) }
        labeledIKM.append(contentsOf: suiteID)
        label.withUTF8Buffer { labeledIKM.append(contentsOf: $0) }
        labeledIKM.append(contentsOf: ikm)
        defer { labeledIKM.zeroize() }  // may hold a DH output or a PSK
        return labeledIKM.withUnsafeBytes { HKDF.extract(digest, salt: salt, ikm: $0) }
    }

    /// LabeledExpand(prk, label, info, L) = Expand(prk, I2OSP(L, 2) || "HPKE-v1" || suite_id || label || info, L).
    func expand(prk: [UInt8], label: StaticString, info: UnsafeRawBufferPointer, length: Int) throws -> [UInt8] {
        guard length > 0, length <= 255 * digest.outputByteCount, length <= 0xFFFF else {
            throw HPKEError(.invalidInput, "requested length \(length) exceeds 255 * Nh")
        }
        var labeledInfo = [UInt8]()
        labeledInfo.reserveCapacity(2 + 7 + suiteID.count + label.utf8CodeUnitCount + info.count)
        labeledInfo.append(UInt8(length >> 8))
        labeledInfo.append(UInt8(length & 0xFF))
        LabeledKDF.version.withUTF8Buffer { labeledInfo.append(contentsOf: $0) }
        labeledInfo.append(contentsOf: suiteID)
        label.withUTF8Buffer { labeledInfo.append(contentsOf: $0) }
        labeledInfo.append(contentsOf: info)
        do {
            return try HKDF.expand(digest, prk: prk, info: labeledInfo, length: length)
        } catch let error as CryptoError {
            throw HPKEError(.internalFailure, error.message)
        }
    }

    func expand(prk: [UInt8], label: StaticString, info: [UInt8], length: Int) throws -> [UInt8] {
        try info.withUnsafeBytes { try expand(prk: prk, label: label, info: $0, length: length) }
    }
}
