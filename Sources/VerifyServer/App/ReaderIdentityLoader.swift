import CryptoCore
import Foundation
import Mdoc
import MdocModel

/// Loads the optional Annex C reader identity (key and certificate chain) named by the configuration.
enum ReaderIdentityLoader {
    static func load(keyPath: String?, certificatePaths: [String], problems: inout [String]) -> ReaderIdentity? {
        guard let keyPath, !certificatePaths.isEmpty else { return nil }
        var key: PrivateKey?
        if let data = FileManager.default.contents(atPath: keyPath) {
            key = try? PrivateKey(pemEncoded: String(decoding: data, as: UTF8.self))
            if key == nil { problems.append("reader key \(keyPath): not a PEM private key OpenSSL can load") }
        } else {
            problems.append("reader key \(keyPath): cannot read the file")
        }
        var certificates: [Certificate] = []
        for path in certificatePaths {
            guard let data = FileManager.default.contents(atPath: path) else {
                problems.append("reader certificate \(path): cannot read the file")
                continue
            }
            do {
                certificates += try Certificate.certificates(fromPEM: String(decoding: data, as: UTF8.self))
            } catch {
                problems.append("reader certificate \(path): not PEM certificates (\(error))")
            }
        }
        guard let key, !certificates.isEmpty else { return nil }
        do {
            return try ReaderIdentity(key: key, certificates: certificates)
        } catch {
            problems.append("reader identity: \(error.message)")
            return nil
        }
    }
}
