import CryptoCore
import MdocModel
import MdocTrust

/// Revocation material for the checks: files first, then what `RevocationFetcher` fetched. Status tokens are looked
/// up by the MSO's `uri`; CRLs by the certificate's distribution points when `FetchSettings.crlDistributionPoints`
/// is on.
public struct FetchingRevocationSource: RevocationSource {
    /// Material given as files, consulted first.
    public let files: StaticRevocationSource?
    /// The fetcher whose cache answers after the files.
    public let fetcher: RevocationFetcher

    /// The given CRLs for `certificate`, then, when `FetchSettings.crlDistributionPoints` is on, the cached CRLs of its
    /// http(s) distribution points whose issuer is the certificate's issuer.
    ///
    /// Never waits on the network; `crls(for:noting:)` also notes a missing or due list for `RevocationFetcher` to fetch.
    public func crls(for certificate: Certificate) -> [RevocationMaterial<CertificateRevocationList>] {
        crls(for: certificate, noting: nil)
    }

    /// `crls(for:)`, noting in `lookups` the distribution points whose CRLs are missing or due.
    public func crls(for certificate: Certificate, noting lookups: RevocationLookups?) -> [RevocationMaterial<CertificateRevocationList>] {
        var found = files?.crls(for: certificate) ?? []
        guard fetcher.settings.crlDistributionPoints else { return found }
        for uri in Self.distributionPointURIs(certificate) {
            if case .success((.crls(let crls), let origin)) = fetcher.lookup(ListKey(.crl, uri), noting: lookups) {
                found += crls.filter { $0.issuer == certificate.issuer }.map { RevocationMaterial($0, origin: origin) }
            }
        }
        return found
    }

    /// The token given for `uri`, else the cached one; unavailable when `uri` is not an http or https URL, has not
    /// been fetched yet, or its fetch failed.
    ///
    /// Never waits on the network; `statusToken(uri:noting:)` also notes a missing or due token for `RevocationFetcher` to
    /// fetch.
    public func statusToken(uri: String) -> Result<RevocationMaterial<StatusToken>, RevocationUnavailable> {
        statusToken(uri: uri, noting: nil)
    }

    /// `statusToken(uri:)`, noting in `lookups` a token that is missing or due.
    public func statusToken(uri: String, noting lookups: RevocationLookups?) -> Result<RevocationMaterial<StatusToken>, RevocationUnavailable> {
        if let files, case .success(let given) = files.statusToken(uri: uri) { return .success(given) }
        guard (try? ListDownload.httpURL(uri)) != nil else {
            return .failure(RevocationUnavailable("\(InputQuote.short(uri)) is not an http or https URL, so it is not fetched"))
        }
        switch fetcher.lookup(ListKey(.statusToken, uri), noting: lookups) {
        case .success((.token(let token), let origin)): return .success(RevocationMaterial(token, origin: origin))
        case .success: return .failure(RevocationUnavailable("\(uri) did not hold a status token"))
        case .failure(let unavailable): return .failure(unavailable)
        }
    }

    /// The http(s) fullName URIs of the certificate's distribution points (others are not fetched).
    static func distributionPointURIs(_ certificate: Certificate) -> [String] {
        certificate.crlDistributionPoints.flatMap(\.fullNames).compactMap { name in
            guard case .uri(let uri) = name, (try? ListDownload.httpURL(uri)) != nil else { return nil }
            return uri
        }
    }
}
