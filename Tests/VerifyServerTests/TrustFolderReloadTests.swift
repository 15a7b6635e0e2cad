import CryptoCore
import Foundation
import Mdoc
import MdocModel
import MdocTesting
import Testing
import TestSupport
import VerifyServer

/// A trust folder with a manifest anchors exactly what it lists, on the server too: a file left behind (or dropped in)
/// that the manifest does not list refuses the reload, and the trust in use stays (security round 3, item 1).
@Suite("verify-server trust folders with a manifest")
struct TrustFolderReloadTests {
    /// `count` fresh trust folders, each holding the Apple sample's root as `apple-test-root.pem`, and that root.
    static func rootFolders(_ count: Int) throws -> (folders: [URL], root: Certificate) {
        let root = try Certificate(pemEncoded: VectorFiles.text("TestVectors/apple/in-app-sample/issuer_root.crt"))
        let folders = try (0..<count).map { _ in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trust-folder-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(root.pemEncoded.utf8).write(to: folder.appendingPathComponent("apple-test-root.pem"))
            return folder
        }
        return (folders, root)
    }

    static func remove(_ folders: [URL]) {
        for folder in folders { try? FileManager.default.removeItem(at: folder) }
    }

    @Test("a certificate file the manifest does not list refuses the reload with a message naming it; the old trust stays")
    func strayFileRefused() async throws {
        let (folders, root) = try Self.rootFolders(1)
        defer { Self.remove(folders) }
        let folder = folders[0]
        let manifest = #"{"entries": [{"certificateSHA256": "\#(Hex.encode(root.sha256Fingerprint))", "docTypes": ["org.iso.18013.5.1.mDL"]}]}"#
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("manifest.json"))
        var configuration = AppleSample.configuration()
        configuration.trustStorePaths = [folder.path]
        try await ServerFixture.withServer(configuration) { server in
            #expect(try jsonObject(try await server.client.get("/readyz"))["trustAnchors"] as? Int == 1)
            // A certificate the manifest does not list, dropped into the folder.
            let stray = try TestPKI(seed: 77).iacaPEM
            try Data(stray.utf8).write(to: folder.appendingPathComponent("00-stray.pem"))
            #expect(!server.app.reloadTrust())
            let body = try jsonObject(try await server.client.get("/readyz"))
            #expect(body["trustAnchors"] as? Int == 1)
            let error = try #require(body["trustReloadError"] as? String)
            #expect(error.contains("00-stray.pem") && error.contains("is not listed in"), "\(error)")
        }
    }

    @Test("under vicalStalePolicy refuse, a trust folder imported from a list whose nextUpdate has passed does not anchor (vical.stale); under warn it does, with a warning")
    func staleImportedFolder() async throws {
        let (folders, root) = try Self.rootFolders(1)
        defer { Self.remove(folders) }
        let folder = folders[0]
        // What `trust vical import` records, with a nextUpdate a day before the sample's verification time.
        let nextUpdate = RFC3339.format(AppleSampleVector.validTime - 86_400)
        let manifest = #"{"provider": "Test DTS", "nextUpdate": "\#(nextUpdate)", "entries": [{"certificateSHA256": "\#(Hex.encode(root.sha256Fingerprint))"}]}"#
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("manifest.json"))
        for policy in [VICALStalePolicy.warn, .refuse] {
            var configuration = AppleSample.configuration()
            configuration.trustStorePaths = [folder.path]
            configuration.vicalStalePolicy = policy
            try await ServerFixture.withServer(configuration) { server in
                let request = AppleSample.request()
                try await server.store.insert(request)
                let answer = try await server.client.post("/v1/verify", json: AppleSample.verifyBody(request.id))
                if policy == .refuse {
                    #expect(answer.status == 422 && answer.text.contains("vical.stale") && answer.text.contains("vicalStalePolicy refuse"),
                            "\(answer.text)")
                } else {
                    #expect(answer.status == 200 && answer.text.contains("the list is stale"), "\(answer.text)")
                }
            }
        }
    }

    @Test("a root in a stale imported folder and also in a plain folder is trusted directly, in either order of the folders (vicalStalePolicy refuse)")
    func staleImportAndDirectTrust() async throws {
        let (folders, root) = try Self.rootFolders(2)
        defer { Self.remove(folders) }
        let (imported, plain) = (folders[0], folders[1])
        let nextUpdate = RFC3339.format(AppleSampleVector.validTime - 86_400)
        let manifest = #"{"provider": "Test DTS", "nextUpdate": "\#(nextUpdate)", "entries": [{"certificateSHA256": "\#(Hex.encode(root.sha256Fingerprint))"}]}"#
        try Data(manifest.utf8).write(to: imported.appendingPathComponent("manifest.json"))
        for paths in [[imported.path, plain.path], [plain.path, imported.path]] {
            var configuration = AppleSample.configuration()
            configuration.trustStorePaths = paths
            configuration.vicalStalePolicy = .refuse
            try await ServerFixture.withServer(configuration) { server in
                let request = AppleSample.request()
                try await server.store.insert(request)
                let answer = try await server.client.post("/v1/verify", json: AppleSample.verifyBody(request.id))
                #expect(answer.status == 200 && !answer.text.contains("the list is stale"), "\(paths): \(answer.text)")
            }
        }
    }
}
