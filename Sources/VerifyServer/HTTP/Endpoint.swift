import Hummingbird

/// Every route the server answers. The router is built from this list and the OpenAPI test compares it with
/// `openapi.yaml`, so the two cannot drift apart.
public enum Endpoint: String, CaseIterable, Sendable {
    case createRequest
    case verify
    case healthz
    case readyz
    case metrics
    /// The inspector (when `inspector: true`; 404 otherwise): its endpoint, page, script and style sheet.
    case inspect
    case inspectorPage
    case inspectorScript
    case inspectorStyle

    public var method: String {
        switch self {
        case .createRequest, .verify, .inspect: return "POST"
        case .healthz, .readyz, .metrics, .inspectorPage, .inspectorScript, .inspectorStyle: return "GET"
        }
    }

    public var path: String {
        switch self {
        case .createRequest: return "/v1/requests"
        case .verify: return "/v1/verify"
        case .healthz: return "/healthz"
        case .readyz: return "/readyz"
        case .metrics: return "/metrics"
        case .inspect: return "/v1/inspect"
        case .inspectorPage: return "/inspect"
        case .inspectorScript: return "/inspect/inspector.js"
        case .inspectorStyle: return "/inspect/inspector.css"
        }
    }

    var httpMethod: HTTPRequest.Method {
        method == "POST" ? .post : .get
    }
}

extension Router where Context == BasicRequestContext {
    /// Registers every `Endpoint` on `handlers`.
    /// Registers every `Endpoint` on `handlers`; any other method on a known path answers 405 with `Allow`.
    func register(_ handlers: ServerHandlers) {
        for endpoint in Endpoint.allCases {
            on(RouterPath(endpoint.path), method: endpoint.httpMethod) { request, context in
                await handlers.respond(endpoint, to: request, context: context)
            }
        }
        let methods: [HTTPRequest.Method] = [.get, .head, .post, .put, .delete, .patch, .options, .trace, .connect]
            + ["QUERY"].compactMap { HTTPRequest.Method($0) }
        for (path, endpoints) in Dictionary(grouping: Endpoint.allCases, by: \.path) {
            let allowed = endpoints.map(\.httpMethod)
            let allow = allowed.map(\.rawValue).joined(separator: ", ")
            for method in methods where !allowed.contains(method) {
                on(RouterPath(path), method: method) { _, _ in
                    Response(status: .methodNotAllowed, headers: [.allow: allow])
                }
            }
        }
    }
}
