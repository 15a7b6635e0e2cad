import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// One bounded GET of a revocation list: http or https only (on every redirect too), at most `maxRedirects`
/// redirects, `maxBytes` of body and `timeout` in all. The request carries nothing but the URI the issuer published:
/// never the index, the document or anything about the holder.
struct ListDownload: Sendable {
    let client: HTTPClient
    let settings: FetchSettings

    /// Why a fetch failed, in words for the report and `/readyz` (never a response body).
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    func get(_ uri: String, accept: String) async throws(Failure) -> [UInt8] {
        let deadline = NIODeadline.now() + .nanoseconds(Int64(settings.timeout.seconds * 1e9))
        var current = try Self.httpURL(uri)
        for _ in 0...settings.maxRedirects {
            var request = HTTPClientRequest(url: current.absoluteString)
            request.method = .GET
            request.headers.add(name: "Accept", value: accept)
            let response: HTTPClientResponse
            do {
                response = try await client.execute(request, deadline: deadline)
            } catch {
                throw Failure(Self.describe(error, timeout: settings.timeout))
            }
            if (300..<400).contains(response.status.code) {
                guard let location = response.headers.first(name: "location"),
                      let next = URL(string: location, relativeTo: current)?.absoluteURL
                else { throw Failure("HTTP \(response.status.code) without a usable Location") }
                current = try Self.httpURL(next.absoluteString)
                continue
            }
            guard response.status == .ok else { throw Failure("HTTP \(response.status.code)") }
            if let declared = response.headers.first(name: "content-length").flatMap(Int.init), declared > settings.maxBytes {
                throw Failure("the response declares \(declared) bytes; lists are read up to \(settings.maxBytes)")
            }
            do {
                let body = try await response.body.collect(upTo: settings.maxBytes)
                return Array(body.readableBytesView)
            } catch is NIOTooManyBytesError {
                throw Failure("the response is larger than \(settings.maxBytes) bytes")
            } catch {
                throw Failure(Self.describe(error, timeout: settings.timeout))
            }
        }
        throw Failure("more than \(settings.maxRedirects) redirects")
    }

    static func httpURL(_ text: String) throws(Failure) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host?.isEmpty == false
        else { throw Failure("\(text.prefix(200)) is not an http or https URL") }
        return url
    }

    private static func describe(_ error: any Error, timeout: Duration) -> String {
        if let client = error as? HTTPClientError {
            switch client {
            case .deadlineExceeded, .readTimeout, .connectTimeout: return "no answer within \(timeout.seconds) s"
            default: return "\(client)"
            }
        }
        return String(describing: error).prefix(200).description
    }
}
