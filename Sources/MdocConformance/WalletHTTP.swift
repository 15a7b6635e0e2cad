import Foundation
import MdocModel
import Verifier

/// A wallet's two HTTP exchanges with a verifier that publishes its request by reference (OpenID4VP 1.0 §5.10, §8.2):
/// the request object fetched from `request_uri`, the answer posted to `response_uri`. No API key or other header of
/// the relying party goes with them; redirects are not followed.
package enum WalletHTTP {
    static let formType = "application/x-www-form-urlencoded"

    /// `POST request_uri` with `wallet_nonce` as a form: the body of a 200 (the signed request object).
    package static func fetchRequestObject(_ requestURI: String, walletNonce: String, timeout: Double) throws(WalletHTTPFailure) -> String {
        let form = "wallet_nonce=" + FormEncoding.encode(walletNonce)
        let (status, data) = try exchange(requestURI, "request_uri", form: form, timeout: timeout)
        guard status == 200, let data else {
            throw WalletHTTPFailure(description: "POST request_uri answered \(status)\(errorText(data)): the wallet has no request object")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// `POST response_uri` with the wallet's form: the status and the JSON object answered (empty when the body is
    /// not one).
    package static func postAnswer(_ form: String, to responseURI: String, timeout: Double) throws(WalletHTTPFailure) -> (Int, JSONValue) {
        let (status, data) = try exchange(responseURI, "response_uri", form: form, timeout: timeout)
        return (status, data.flatMap { JSONValue.read($0) } ?? .object([]))
    }

    /// " (code: message)" of an error body, or "".
    static func errorText(_ data: Data?) -> String {
        guard let error = data.flatMap({ JSONValue.read($0) })?["error"], let code = error["code"]?.string else { return "" }
        return " (\(InputQuote.short(code)): \(InputQuote.short(error["message"]?.string ?? "")))"
    }

    private static func exchange(_ text: String, _ name: String, form: String, timeout: Double) throws(WalletHTTPFailure) -> (Int, Data?) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw WalletHTTPFailure(description: "the request's \(name) \(InputQuote.short(text)) is not an absolute http(s) URL")
        }
        do {
            return try HTTPExchange.send("POST", url, headers: [:], body: (formType, Data(form.utf8)), timeout: timeout,
                                         displayURL: InputQuote.redactedURL(text))
        } catch let failure as TargetFailure {
            throw WalletHTTPFailure(description: failure.description)
        } catch {
            throw WalletHTTPFailure(description: "POST \(name) failed: \(error)")
        }
    }
}

/// A wallet exchange that did not happen: the URL, the connection, the time bound or the answer, described.
package struct WalletHTTPFailure: Error, CustomStringConvertible {
    package let description: String
}
