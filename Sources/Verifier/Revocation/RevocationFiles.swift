import CryptoCore
import Foundation
import MdocModel
import MdocTrust

/// Revocation material from files, as the CLI (`--crl`, `--status-list`) and the server (`crls`, `statusLists`)
/// take it: CRLs in PEM or DER; status list and identifier list tokens as raw CWT bytes or hex text, matched to the
/// MSO's URI by their `sub` claim.
public enum RevocationFiles {
    /// Largest file read (a status list token is at most a few MB compressed).
    public static let maxFileBytes = 32 << 20

    /// A revocation source from CRL files and status list or identifier list token files.
    ///
    /// Throws `VerificationError(.inputMalformed)` naming the file that cannot be read or parsed.
    public static func source(crls crlPaths: [String], statusLists tokenPaths: [String]) throws(VerificationError) -> StaticRevocationSource {
        var crls: [RevocationMaterial<CertificateRevocationList>] = []
        for path in crlPaths {
            let bytes = try read(path)
            do {
                crls += try CertificateRevocationList.load(bytes).map { RevocationMaterial($0, origin: "file \(path)") }
            } catch {
                throw VerificationError(.inputMalformed, "\(path): not a CRL (PEM or DER): \(error)")
            }
        }
        var tokens: [RevocationMaterial<[UInt8]>] = []
        for path in tokenPaths {
            var bytes = try read(path)
            if let text = String(validating: bytes, as: UTF8.self), let hex = Hex.decode(text.trimmingCharacters(in: .whitespacesAndNewlines)),
               !hex.isEmpty {
                bytes = hex
            }
            tokens.append(RevocationMaterial(bytes, origin: "file \(path)"))
        }
        return try StaticRevocationSource(crls: crls, tokens: tokens)
    }

    private static func read(_ path: String) throws(VerificationError) -> [UInt8] {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        if let size = attributes?[.size] as? Int, size > maxFileBytes {
            throw VerificationError(.inputMalformed, "\(path): \(size) bytes; revocation files are read up to \(maxFileBytes)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw VerificationError(.inputMalformed, "\(path): cannot read the file")
        }
        return [UInt8](data)
    }
}
