import CryptoCore
import Foundation

/// Revocation material and where it came from, for the report ("file crl.pem", "https://… fetched 12 s ago").
public struct RevocationMaterial<Value: Sendable>: Sendable {
    public let value: Value
    public let origin: String

    public init(_ value: Value, origin: String) {
        self.value = value
        self.origin = origin
    }
}

/// Where the checks find CRLs and status tokens. Lookups are synchronous and must not block on the network: a
/// fetching source answers from its cache and records what it lacks (the server fetches and verifies again).
public protocol RevocationSource: Sendable {
    /// CRLs that may cover `certificate` (by its issuer's name or its CRL distribution points); the check verifies
    /// each one's issuer, signature and currency itself.
    func crls(for certificate: Certificate) -> [RevocationMaterial<CertificateRevocationList>]
    /// The status list or identifier list token published at `uri` (its bytes, unverified), or why there is none.
    func statusToken(uri: String) -> Result<RevocationMaterial<[UInt8]>, RevocationUnavailable>
}

/// Why a source has no answer, in words for the report.
public struct RevocationUnavailable: Error, Sendable, Equatable {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
}

/// CRLs and status tokens given as files (`--crl`, `--status-list`). Tokens are matched by their `sub` claim.
public struct StaticRevocationSource: RevocationSource {
    public let crlList: [RevocationMaterial<CertificateRevocationList>]
    public let tokens: [String: RevocationMaterial<[UInt8]>]

    public init(crls: [RevocationMaterial<CertificateRevocationList>] = [], tokens: [RevocationMaterial<[UInt8]>] = []) throws(VerificationError) {
        crlList = crls
        var bySubject: [String: RevocationMaterial<[UInt8]>] = [:]
        for token in tokens {
            let subject: String
            do {
                subject = try StatusToken.subject(of: token.value)
            } catch {
                throw VerificationError(error.code, "\(token.origin): \(error.message)")
            }
            bySubject[subject] = token
        }
        self.tokens = bySubject
    }

    public func crls(for certificate: Certificate) -> [RevocationMaterial<CertificateRevocationList>] {
        crlList.filter { $0.value.issuer == certificate.issuer }
    }

    public func statusToken(uri: String) -> Result<RevocationMaterial<[UInt8]>, RevocationUnavailable> {
        if let token = tokens[uri] { return .success(token) }
        return .failure(RevocationUnavailable("no status token for \(InputQuote.short(uri)) was given"))
    }
}
