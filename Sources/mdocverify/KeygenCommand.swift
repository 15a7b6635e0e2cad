import ArgumentParser
import CryptoCore
import Foundation
import Mdoc
import MdocModel
import Verifier

/// `mdocverify keygen`: a P-256 merchant key pair for testing without an Apple developer account.
struct Keygen: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a P-256 merchant key pair (merchant-private.pem PKCS#8, merchant-public.pem SPKI) and print its pkRHash.",
        discussion: "Prints the two paths, then \"pkRHash (hex): …\": SHA-256 of the 65-byte uncompressed public point, as in APPLE-HPKE-v1 envelopes (the key ID Apple's envelope names its recipient by)."
    )

    @Option(help: "Directory to write the key files to (created if missing).")
    var out: String

    func run() throws {
        try runReportingExit {
            let key = try PrivateKey.generate(.p256)
            try OutputFiles.createDirectory(out)
            let privatePath = try OutputFiles.write(Array(key.pkcs8PEM().utf8), to: out, name: "merchant-private.pem", privateFile: true)
            let publicPath = try OutputFiles.write(Array(key.publicKey.pemEncoded.utf8), to: out, name: "merchant-public.pem")
            print("wrote \(privatePath) (private key, mode 0600) and \(publicPath) (public key)")
            print("pkRHash (hex): \(Hex.encode(RecipientKeyRing.pkRHash(of: key.publicKey)))")
            return .verified
        }
    }
}

/// Writing output files. Every failure is a `UsageFailure` (exit 2) naming the path.
enum OutputFiles {
    static func createDirectory(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw UsageFailure("cannot create directory \(path)")
        }
    }

    /// Writes `bytes` to `directory/name`; private files get mode 0600.
    @discardableResult
    static func write(_ bytes: [UInt8], to directory: String, name: String, privateFile: Bool = false) throws -> String {
        let path = URL(fileURLWithPath: directory).appendingPathComponent(name).path
        let attributes: [FileAttributeKey: Any]? = privateFile ? [.posixPermissions: 0o600] : nil
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes), attributes: attributes) else {
            throw UsageFailure("cannot write \(path)")
        }
        return path
    }
}
