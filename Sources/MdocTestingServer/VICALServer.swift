import Foundation
import Mdoc
import MdocTesting

/// A VICAL published on 127.0.0.1 for tests of downloading verifiers (the server's `vicals: [{url, root}]`, the CLI's
/// `trust vical fetch`): the list the test chooses, swapped at will — a newer or an older issue, a bad signature, an
/// oversized body, an error status — or no server at all (`stop()`). Built on `RevocationListServer`.
public final class VICALServer: Sendable {
    /// The trust-list operator whose root the verifier pins.
    public let builder: VICALBuilder
    /// The HTTP server underneath (request counts, delays).
    public let server: RevocationListServer
    /// The path the list is published at.
    public let path = "/vical.cbor"

    private init(builder: VICALBuilder, server: RevocationListServer) {
        self.builder = builder
        self.server = server
    }

    /// Starts an empty server (404 until a list is published) for `builder`'s lists.
    public static func start(builder: VICALBuilder) async throws -> VICALServer {
        VICALServer(builder: builder, server: try await RevocationListServer.start())
    }

    /// The list's URL: `http://127.0.0.1:<port>/vical.cbor`.
    public var url: String { server.url(path) }

    /// Serves `bytes` as the list from now on.
    public func publish(_ bytes: [UInt8]) {
        server.publish(.list(bytes, contentType: "application/cose"), at: path)
    }

    /// Builds issue `issueID` of the operator's list over `entries` and serves it; returns its bytes.
    ///
    /// Throws when the list cannot be signed.
    @discardableResult
    public func publish(entries: [VICALBuilder.Entry], issueID: UInt64?, date: Date, nextUpdate: Date?,
                        provider: String = "MdocTesting") throws -> [UInt8] {
        let bytes = try builder.build(entries: entries, issueID: issueID, date: date, nextUpdate: nextUpdate, provider: provider)
        publish(bytes)
        return bytes
    }

    /// `bytes` (a signed list) with the last byte of its signature flipped: well-formed, signature invalid.
    public static func badSignature(_ bytes: [UInt8]) -> [UInt8] {
        var tampered = bytes
        if let last = tampered.indices.last { tampered[last] ^= 0x01 }
        return tampered
    }

    /// Serves `count` bytes of zeros (a body over a download's size limit).
    public func publishOversized(_ count: Int) {
        publish([UInt8](repeating: 0, count: count))
    }

    /// Answers every request with `status` and no body (a list server in trouble).
    public func fail(status: Int) {
        server.publish(.status(status), at: path)
    }

    /// Requests for the list so far.
    public var requests: Int { server.requests(path) }

    /// Stops listening: the list server is down.
    public func stop() async {
        await server.stop()
    }
}
