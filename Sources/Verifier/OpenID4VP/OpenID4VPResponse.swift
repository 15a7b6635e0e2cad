import Foundation
import MdocModel

/// What a page posts for an OpenID4VP request (docs/formats.md §7.2): the DC API result `{protocol, data}`, its
/// `data` alone (an object, or the JSON string Android hands over), or the bare compact JWE. `data` is
/// `{"response": JWE}` (`dc_api.jwt`), `{"vp_token": {...}}` (`dc_api`) or `{"error": …}` (OpenID4VP 1.0 §8.5).
enum OpenID4VPResponse {
    case encrypted(String)
    /// `repeatedQueryID`: a credential query id the `vp_token` names twice (refused on `vp_token.structure`).
    case plain(JSONValue, repeatedQueryID: String?)
    case walletError(String, description: String?)

    /// `protocol`, when the page posted the whole DC API result.
    static func parse(_ text: String) throws(VerificationError) -> (OpenID4VPResponse, protocol: String?) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("{") else {
            guard !trimmed.isEmpty else { throw VerificationError(.inputMalformed, "the response is empty") }
            return (.encrypted(trimmed), nil)
        }
        var (object, repeatedQueryID) = try Self.object(trimmed.utf8, what: "the response")
        var protocolIdentifier: String?
        if object["data"] != nil || object["protocol"] != nil {
            guard let identifier = object["protocol"]?.string else {
                throw VerificationError(.inputMalformed, "the DC API result has no string `protocol`")
            }
            protocolIdentifier = identifier
            if let text = object["data"]?.string {
                (object, repeatedQueryID) = try Self.object(text.utf8, what: "`data`")
            } else if let inner = object["data"], inner.isObject {
                object = inner
            } else {
                throw VerificationError(.inputMalformed, "the DC API result has no `data` object")
            }
        }
        if let error = object["error"] {
            guard let code = error.string else { throw VerificationError(.inputMalformed, "`error` is not a string") }
            return (.walletError(code, description: object["error_description"]?.string), protocolIdentifier)
        }
        if let response = object["response"] {
            guard let jwe = response.string else { throw VerificationError(.inputMalformed, "`response` is not a string") }
            return (.encrypted(jwe), protocolIdentifier)
        }
        guard object["vp_token"] != nil else {
            throw VerificationError(.inputMalformed, "`data` has none of `response`, `vp_token` or `error`")
        }
        return (.plain(object, repeatedQueryID: repeatedQueryID), protocolIdentifier)
    }

    /// The most JSON values an answer may hold (far more than any real one: a presentation is one string).
    static let maxNodes = 100_000

    /// `json` as a JSON object, and a query id its `vp_token` names twice; throws `input.malformed` for text that is
    /// not a JSON object or repeats any other member name within one object, which parsers read differently.
    static func object(_ json: some Collection<UInt8>, what: String) throws(VerificationError) -> (JSONValue, repeatedQueryID: String?) {
        let object: JSONValue
        let repeated: JSONRepeat?
        do {
            (object, repeated) = try JSONValue.parseNotingRepeat(json, maxNodes: maxNodes)
        } catch {
            throw VerificationError(.inputMalformed, "\(what) is not a JSON object: \(error.message)")
        }
        guard object.isObject else { throw VerificationError(.inputMalformed, "\(what) is not a JSON object") }
        guard let repeated else { return (object, nil) }
        if repeated.parent == "vp_token" { return (object, repeated.name) }
        throw VerificationError(.inputMalformed, "\(what) names the JSON member \(InputQuote.short(repeated.name)) twice in one object; "
                                + "parsers disagree on which one counts, so the answer is refused")
    }

    /// The message for a `vp_token` that names a credential query twice.
    static func repeatedQueryMessage(_ id: String) -> String {
        "`vp_token` names credential query \(InputQuote.short(id)) twice; each query is answered once"
    }

    /// The presentations of a `vp_token` (OpenID4VP 1.0 §8.1, B.2.5): credential query id → array of base64url
    /// DeviceResponses. A bare string per id is the pre-1.0 shape (accepted, with `legacy` set). Every one of
    /// `queryIDs` must be answered: the request sends no `credential_sets`, so each query is required (§6.4.2).
    struct Presentation {
        let queryID: String
        let deviceResponse: [UInt8]
    }

    static func presentations(_ payload: JSONValue, queryIDs: [String]) throws(VerificationError)
        -> (presentations: [Presentation], legacy: [String]) {
        guard let token = payload["vp_token"]?.members else {
            throw VerificationError(.vpTokenMalformed, "`vp_token` is not a JSON object of credential query ids")
        }
        guard !token.isEmpty else { throw VerificationError(.vpTokenMalformed, "`vp_token` holds no presentation") }
        var presentations: [Presentation] = []
        var legacy: [String] = []
        for (id, value) in token.sorted(by: { $0.0 < $1.0 }) {
            guard queryIDs.isEmpty || queryIDs.contains(id) else {
                throw VerificationError(.vpTokenMalformed, "`vp_token` answers \(InputQuote.short(id)), which the request did not ask for")
            }
            let items: [JSONValue]
            if value.string != nil {
                items = [value]
                legacy.append(id)
            } else if let array = value.array {
                items = array
            } else {
                throw VerificationError(.vpTokenMalformed, "`vp_token.\(InputQuote.short(id))` is neither an array nor a string")
            }
            guard items.count == 1 else {
                throw VerificationError(.vpTokenMalformed,
                                        "`vp_token.\(InputQuote.short(id))` holds \(items.count) presentations; the request asked for one (multiple: false)")
            }
            guard let text = items[0].string, let bytes = Base64URL.decodeStrict(text), !bytes.isEmpty, !text.hasSuffix("=") else {
                throw VerificationError(.vpTokenMalformed, "`vp_token.\(InputQuote.short(id))` is not an unpadded base64url DeviceResponse")
            }
            presentations.append(Presentation(queryID: id, deviceResponse: bytes))
        }
        let unanswered = queryIDs.filter { id in !token.contains { $0.0 == id } }
        if !unanswered.isEmpty {
            throw VerificationError(.vpTokenQueryUnanswered, "`vp_token` does not answer credential "
                                    + (unanswered.count == 1 ? "query " : "queries ") + unanswered.map { InputQuote.short($0) }.joined(separator: ", ")
                                    + "; the request requires every query it makes, so ask the holder to present each requested document")
        }
        return (presentations, legacy)
    }
}
