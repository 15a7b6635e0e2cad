import CryptoCore
import Foundation
import MdocTesting

/// What a test of a downloading verifier starts with: a list server, a temporary folder holding the list signer's
/// pinned root as `root.pem`, and two issuers whose IACAs the lists name.
public struct SignedListFixture<Builder: Sendable>: Sendable {
    /// The temporary folder (removed by `finish()`).
    public let folder: URL
    /// The list server.
    public let lists: SignedListServer<Builder>
    /// The first of two issuers, seeded apart.
    public let first: TestPKI
    /// The second issuer.
    public let second: TestPKI
    /// The time the lists are issued around.
    public let time: Date

    /// The pinned root's PEM file in `folder`.
    public var root: String { folder.appendingPathComponent("root.pem").path }
    /// A folder in `folder` for a verifier's last good copies (not created).
    public var cache: String { folder.appendingPathComponent("cache").path }
    /// A folder in `folder` for a trust folder import (not created).
    public var trust: String { folder.appendingPathComponent("trust").path }

    /// A fixture on `lists`, pinning `root`, with issuers seeded `seeds` valid at `time`.
    ///
    /// Throws when the folder or the root's file cannot be written, or an issuer cannot be made.
    public init(_ lists: SignedListServer<Builder>, root: Certificate, seeds: (UInt64, UInt64), at time: Date) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("signed-list-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(PEMText.certificate(root).utf8).write(to: folder.appendingPathComponent("root.pem"))
        self.lists = lists
        first = try TestPKI(seed: seeds.0, at: time)
        second = try TestPKI(seed: seeds.1, at: time)
        self.time = time
    }

    /// Thirty days after `time`: a list's nextUpdate unless a test says otherwise.
    public var current: Date { time + 30 * 86_400 }

    /// Stops the server and removes the folder.
    public func finish() async {
        await lists.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs `body`, then finishes the fixture, also when `body` throws.
    public func run(_ body: (Self) async throws -> Void) async throws {
        do {
            try await body(self)
        } catch {
            await finish()
            throw error
        }
        await finish()
    }
}

extension SignedListFixture where Builder == VICALBuilder {
    /// A VICAL server for the operator seeded `seed`, and issuers seeded `seeds`, all at `time`.
    public static func vical(seed: UInt64, issuers seeds: (UInt64, UInt64), at time: Date) async throws -> Self {
        let lists = try await VICALServer.start(builder: try VICALBuilder(seed: seed, at: time))
        return try Self(lists, root: lists.builder.root, seeds: seeds, at: time)
    }

    /// Publishes issue `id` (dated a day before `time`) listing `issuers`' IACAs for mDLs, valid until `nextUpdate`
    /// (`current` by default); returns its bytes.
    ///
    /// Throws when the list cannot be signed.
    @discardableResult
    public func publish(_ id: UInt64?, _ issuers: [TestPKI], nextUpdate: Date? = nil) throws -> [UInt8] {
        try lists.publish(entries: issuers.map { .init($0.iaca, docTypes: ["org.iso.18013.5.1.mDL"]) }, issueID: id, date: time - 86_400,
                          nextUpdate: nextUpdate ?? current)
    }
}

extension SignedListFixture where Builder == LoTEBuilder {
    /// A LoTE server for the scheme operator seeded `seed`, and issuers seeded `seeds`, all at `time`.
    public static func lote(seed: UInt64, issuers seeds: (UInt64, UInt64), at time: Date) async throws -> Self {
        let lists = try await LoTEServer.start(builder: try LoTEBuilder(seed: seed, at: time))
        return try Self(lists, root: lists.builder.root, seeds: seeds, at: time)
    }

    /// Publishes sequence `sequence` of an mDL providers list (issued an hour before `time`) naming `issuers`' IACAs,
    /// valid until `nextUpdate` (`current` by default), signed by `builder` (the server's own by default); returns its
    /// bytes.
    ///
    /// Throws when the list cannot be signed.
    @discardableResult
    public func publish(_ sequence: UInt64, _ issuers: [TestPKI], nextUpdate: Date? = nil, by builder: LoTEBuilder? = nil) throws -> [UInt8] {
        let services = issuers.map { LoTEBuilder.Service([$0.iaca], type: LoTEBuilder.mdlIssuance, entityName: "Issuer \($0.iaca.subject)") }
        let bytes = try (builder ?? lists.builder).build(services: services, sequenceNumber: sequence, issued: time - 3600,
                                                          nextUpdate: nextUpdate ?? current, type: LoTEBuilder.mdlListType)
        lists.publish(bytes)
        return bytes
    }
}
