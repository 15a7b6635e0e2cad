import Foundation
import MdocTesting

/// A signed trust list published on 127.0.0.1 for tests of downloading verifiers (the server's `vicals` and `lotes`
/// with a `url`, the CLI's `trust vical fetch` and `trust lote fetch`): the list the test chooses, swapped at will — a
/// newer or an older one, a bad signature, an oversized body, an error status, a redirect — or no server at all
/// (`stop()`). Built on `RevocationListServer`; `Builder` is the kit's list signer (`VICALBuilder`, `LoTEBuilder`).
public final class SignedListServer<Builder: Sendable>: Sendable {
    /// The trust-list operator whose root the verifier pins.
    public let builder: Builder
    /// The HTTP server underneath (request counts, delays).
    public let server: RevocationListServer
    /// The path the list is published at.
    public let path: String
    /// The Content-Type the list is served with.
    public let contentType: String

    private init(builder: Builder, server: RevocationListServer, path: String, contentType: String) {
        self.builder = builder
        self.server = server
        self.path = path
        self.contentType = contentType
    }

    /// Starts an empty server (404 until a list is published) for `builder`'s lists, served at `path`.
    public static func start(builder: Builder, path: String, contentType: String) async throws -> SignedListServer {
        SignedListServer(builder: builder, server: try await RevocationListServer.start(), path: path, contentType: contentType)
    }

    /// The list's URL: `http://127.0.0.1:<port><path>`.
    public var url: String { server.url(path) }

    /// Serves `bytes` as the list from now on.
    public func publish(_ bytes: [UInt8]) {
        server.publish(.list(bytes, contentType: contentType), at: path)
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

    /// Answers with a 302 to `location`.
    public func redirect(to location: String) {
        server.publish(.redirect(location), at: path)
    }

    /// Requests for the list so far.
    public var requests: Int { server.requests(path) }

    /// Stops listening: the list server is down.
    public func stop() async {
        await server.stop()
    }
}

/// A VICAL published on loopback.
public typealias VICALServer = SignedListServer<VICALBuilder>

extension SignedListServer where Builder == VICALBuilder {
    /// Starts an empty server for `builder`'s VICALs at `/vical.cbor` (`application/cose`).
    public static func start(builder: VICALBuilder) async throws -> VICALServer {
        try await start(builder: builder, path: "/vical.cbor", contentType: "application/cose")
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
}

/// An ETSI TS 119 602 LoTE published on loopback.
public typealias LoTEServer = SignedListServer<LoTEBuilder>

extension SignedListServer where Builder == LoTEBuilder {
    /// Starts an empty server for `builder`'s LoTEs at `/lote.jwt` (`application/jose`).
    public static func start(builder: LoTEBuilder) async throws -> LoTEServer {
        try await start(builder: builder, path: "/lote.jwt", contentType: "application/jose")
    }

    /// Builds sequence `sequenceNumber` of the operator's list over `services` and serves it; returns its bytes.
    ///
    /// Throws when the list cannot be signed.
    @discardableResult
    public func publish(services: [LoTEBuilder.Service], sequenceNumber: UInt64, issued: Date, nextUpdate: Date,
                        type: String? = LoTEBuilder.pidListType) throws -> [UInt8] {
        let bytes = try builder.build(services: services, sequenceNumber: sequenceNumber, issued: issued, nextUpdate: nextUpdate, type: type)
        publish(bytes)
        return bytes
    }

    /// `bytes` (a compact JWS) with one character of its signature changed to another base64url letter: still
    /// well-formed, signature invalid.
    public static func tampered(_ bytes: [UInt8]) -> [UInt8] {
        var tampered = bytes
        guard tampered.count > 4 else { return tampered }
        let index = tampered.count - 4
        tampered[index] = tampered[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        return tampered
    }
}
