import Hummingbird

/// Every route the server answers. The router is built from this list and the OpenAPI test compares it with
/// `openapi.yaml`, so the two cannot drift apart.
public enum Endpoint: String, CaseIterable, Sendable {
    case createRequest
    case verify
    case healthz
    case readyz
    case metrics

    public var method: String {
        switch self {
        case .createRequest, .verify: return "POST"
        case .healthz, .readyz, .metrics: return "GET"
        }
    }

    public var path: String {
        switch self {
        case .createRequest: return "/v1/requests"
        case .verify: return "/v1/verify"
        case .healthz: return "/healthz"
        case .readyz: return "/readyz"
        case .metrics: return "/metrics"
        }
    }

    var httpMethod: HTTPRequest.Method {
        method == "POST" ? .post : .get
    }
}

extension Router where Context == BasicRequestContext {
    /// Registers every `Endpoint` on `handlers`.
    func register(_ handlers: ServerHandlers) {
        for endpoint in Endpoint.allCases {
            on(RouterPath(endpoint.path), method: endpoint.httpMethod) { request, context in
                await handlers.respond(endpoint, to: request, context: context)
            }
        }
    }
}
