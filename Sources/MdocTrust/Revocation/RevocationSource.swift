import CryptoCore
import Foundation
import MdocModel

/// Revocation material and where it came from, for the report ("file crl.pem", "https://… fetched 12 s ago").
public struct RevocationMaterial<Value: Sendable>: Sendable {
    /// The material itself.
    public let value: Value
    /// Where the material came from, in words for the report.
    public let origin: String

    /// Pairs `value` with where it came from.
    public init(_ value: Value, origin: String) {
        self.value = value
        self.origin = origin
    }
}

/// Where the checks find CRLs and status tokens. Lookups are synchronous and must not block on the network: a
/// fetching source answers from its cache and records what it lacks (the caller fetches it, and the revocation checks
/// run again on it; `RevocationLookups`).
public protocol RevocationSource: Sendable {
    /// CRLs that may cover `certificate` (by its issuer's name or its CRL distribution points); the check verifies
    /// each one's issuer, signature and currency itself.
    func crls(for certificate: Certificate) -> [RevocationMaterial<CertificateRevocationList>]
    /// The status list or identifier list token published at `uri` (parsed once, not yet trusted), or why there is none.
    func statusToken(uri: String) -> Result<RevocationMaterial<StatusToken>, RevocationUnavailable>
    /// `crls(for:)`, noting in `lookups` the lists the source would have to fetch first.
    func crls(for certificate: Certificate, noting lookups: RevocationLookups?) -> [RevocationMaterial<CertificateRevocationList>]
    /// `statusToken(uri:)`, noting in `lookups` the token the source would have to fetch first.
    func statusToken(uri: String, noting lookups: RevocationLookups?) -> Result<RevocationMaterial<StatusToken>, RevocationUnavailable>
}

extension RevocationSource {
    /// A source that fetches nothing notes nothing.
    public func crls(for certificate: Certificate, noting lookups: RevocationLookups?) -> [RevocationMaterial<CertificateRevocationList>] {
        crls(for: certificate)
    }

    /// A source that fetches nothing notes nothing.
    public func statusToken(uri: String, noting lookups: RevocationLookups?) -> Result<RevocationMaterial<StatusToken>, RevocationUnavailable> {
        statusToken(uri: uri)
    }
}

/// Why a source has no answer, in words for the report.
public struct RevocationUnavailable: Error, Sendable, Equatable {
    /// Why there is no answer, for the report.
    public let reason: String
    /// Creates the error with its reason.
    public init(_ reason: String) { self.reason = reason }
}

/// CRLs and status tokens given as files (`--crl`, `--status-list`), or built by the compliance kit. Tokens are parsed
/// (and their lists inflated) once, here, and matched to the MSO's URI by their `sub` claim.
public struct StaticRevocationSource: RevocationSource {
    /// The CRLs given.
    public let crlList: [RevocationMaterial<CertificateRevocationList>]
    /// The parsed status tokens, keyed by their `sub` claim or by the URI they were fetched from (see the initializers).
    public let tokens: [String: RevocationMaterial<StatusToken>]

    /// Creates a source from CRLs and raw status tokens, keying each token by its `sub` claim.
    ///
    /// - Throws: The parse error of a token that does not parse, its message prefixed with the token's origin, or
    ///   `input.malformed` for two tokens with the same `sub`.
    public init(crls: [RevocationMaterial<CertificateRevocationList>] = [], tokens: [RevocationMaterial<[UInt8]>] = []) throws(VerificationError) {
        crlList = crls
        var bySubject: [String: RevocationMaterial<StatusToken>] = [:]
        for token in tokens {
            let parsed = try Self.parse(token)
            if let earlier = bySubject[parsed.value.subject] {
                throw VerificationError(.inputMalformed, "\(token.origin): a token for \(InputQuote.short(parsed.value.subject)) was already given (\(earlier.origin))")
            }
            bySubject[parsed.value.subject] = parsed
        }
        self.tokens = bySubject
    }

    /// Creates a source from CRLs and raw status tokens keyed by the URI each was fetched from.
    ///
    /// A token whose `sub` names another URI is still found, and the check reports the mismatch.
    ///
    /// - Throws: The parse error of a token that does not parse, its message prefixed with the token's origin.
    public init(crls: [RevocationMaterial<CertificateRevocationList>] = [], fetched: [String: RevocationMaterial<[UInt8]>]) throws(VerificationError) {
        crlList = crls
        var byURI: [String: RevocationMaterial<StatusToken>] = [:]
        for (uri, token) in fetched { byURI[uri] = try Self.parse(token) }
        self.tokens = byURI
    }

    private static func parse(_ token: RevocationMaterial<[UInt8]>) throws(VerificationError) -> RevocationMaterial<StatusToken> {
        do {
            return RevocationMaterial(try StatusToken(token.value), origin: token.origin)
        } catch {
            throw VerificationError(error.code, "\(token.origin): \(error.message)")
        }
    }

    /// The given CRLs whose issuer name is `certificate`'s issuer name.
    public func crls(for certificate: Certificate) -> [RevocationMaterial<CertificateRevocationList>] {
        crlList.filter { $0.value.issuer == certificate.issuer }
    }

    /// The token given for `uri`, or `RevocationUnavailable` when none was.
    public func statusToken(uri: String) -> Result<RevocationMaterial<StatusToken>, RevocationUnavailable> {
        if let token = tokens[uri] { return .success(token) }
        return .failure(RevocationUnavailable("no status token for \(InputQuote.short(uri)) was given"))
    }
}
