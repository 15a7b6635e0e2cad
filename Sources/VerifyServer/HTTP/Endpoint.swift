import Hummingbird

/// Every route the server answers.
///
/// The router is built from this list and the OpenAPI test compares it with docs/openapi.yaml, so the two cannot
/// drift apart. The inspector routes answer 404 unless `ServerConfiguration.inspector` is on.
public enum Endpoint: String, CaseIterable, Sendable {
    /// `POST /v1/requests`: creates a single-use request and answers 201 with its ID, the format's public request
    /// fields and its expiry.
    case createRequest
    /// `POST /v1/verify`: consumes a request and verifies the wallet's response to it; answers 200 with a verified
    /// report, 422 with a rejected one.
    case verify
    /// `GET /healthz`: liveness; always `{"status": "ok"}`.
    case healthz
    /// `GET /readyz`: readiness (store reachable, at least one format offered, trust store not empty) and what the server has loaded.
    case readyz
    /// `HEAD /healthz`: liveness for probes that send HEAD; 200 with no body.
    case healthzHead
    /// `HEAD /readyz`: readiness as `GET /readyz` decides it; 200 or 503 with no body.
    case readyzHead
    /// `GET /metrics`: the Prometheus text exposition of `ServerMetrics`.
    case metrics
    /// `GET /v1/operator/revocation`: every fetched revocation list and its state, for the operator (bearer token).
    case operatorRevocation
    /// `POST /v1/inspect`: the inspector's endpoint, which verifies a pasted response and returns its decoded CBOR.
    case inspect
    /// `GET /inspect`: the inspector page.
    case inspectorPage
    /// `GET /inspect/inspector.js`: the inspector page's script.
    case inspectorScript
    /// `GET /inspect/inspector.css`: the inspector page's style sheet.
    case inspectorStyle
    /// `POST /v1/transactions` (backend API, API key): creates a transaction for one of the key's origins; answers 201
    /// with its ID, `clientSecret`, the format's public request fields and its expiry.
    case createTransaction
    /// `GET /v1/transactions/{requestId}` (backend API, API key): the transaction's status and, once verified or
    /// rejected, its report.
    case transactionStatus
    /// `POST /v1/wallet/{requestId}/response` (wallet-facing, `X-Client-Secret`): takes the wallet's answer once and
    /// tells the page only accepted or rejected.
    case walletResponse
    /// `OPTIONS /v1/wallet/{requestId}/response`: the CORS preflight of the configured origins; 204.
    case walletPreflight
    /// `GET /v1/wallet/{requestId}/request` (wallet-facing, by-reference formats): the signed request object, once.
    case walletRequestObject
    /// `POST /v1/wallet/{requestId}/request`: the same, with the wallet's `wallet_metadata` and `wallet_nonce` as a form.
    case walletRequestObjectPost
    /// `POST /v1/wallet/{requestId}/direct_post` (wallet-facing, by-reference formats): the wallet's answer, taken once.
    case walletDirectPost
    /// `GET /demo` (test mode with `demoOrigin`): the demo page.
    case demoPage
    /// `GET /demo/demo.js`: the demo page's script.
    case demoScript
    /// `POST /v1/demo/transactions` (test mode with `demoOrigin`): creates a transaction for the demo origin, no key.
    case demoCreate
    /// `GET /v1/demo/transactions/{requestId}` (test mode with `demoOrigin`): a demo transaction's status and report.
    case demoStatus
    /// `GET /v1/demo/qr?text=…` (test mode with `demoOrigin`): the QR code of an authorization request, as SVG.
    case demoQRCode

    /// The route's HTTP method: "POST", "GET", "HEAD" or "OPTIONS".
    public var method: String {
        switch self {
        case .createRequest, .verify, .inspect, .createTransaction, .walletResponse, .demoCreate, .walletRequestObjectPost, .walletDirectPost:
            return "POST"
        case .transactionStatus, .demoPage, .demoScript, .demoStatus, .walletRequestObject, .demoQRCode: return "GET"
        case .walletPreflight: return "OPTIONS"
        case .healthz, .readyz, .metrics, .operatorRevocation, .inspectorPage, .inspectorScript, .inspectorStyle: return "GET"
        case .healthzHead, .readyzHead: return "HEAD"
        }
    }

    /// The route's path, e.g. "/v1/verify".
    public var path: String {
        switch self {
        case .createRequest: return "/v1/requests"
        case .verify: return "/v1/verify"
        case .healthz, .healthzHead: return "/healthz"
        case .readyz, .readyzHead: return "/readyz"
        case .metrics: return "/metrics"
        case .operatorRevocation: return "/v1/operator/revocation"
        case .inspect: return "/v1/inspect"
        case .inspectorPage: return "/inspect"
        case .inspectorScript: return "/inspect/inspector.js"
        case .inspectorStyle: return "/inspect/inspector.css"
        case .createTransaction: return "/v1/transactions"
        case .transactionStatus: return "/v1/transactions/{requestId}"
        case .walletResponse, .walletPreflight: return "/v1/wallet/{requestId}/response"
        case .walletRequestObject, .walletRequestObjectPost: return "/v1/wallet/{requestId}/request"
        case .walletDirectPost: return "/v1/wallet/{requestId}/direct_post"
        case .demoPage: return "/demo"
        case .demoScript: return "/demo/demo.js"
        case .demoCreate: return "/v1/demo/transactions"
        case .demoStatus: return "/v1/demo/transactions/{requestId}"
        case .demoQRCode: return "/v1/demo/qr"
        }
    }

    /// Whether the route is the operator's only: served on the operator listener (or the shared one), never on a
    /// public listener beside a private operator listener.
    public var isOperatorOnly: Bool { self == .metrics || self == .operatorRevocation }

    /// Whether the route is a liveness or readiness probe, which every listener answers.
    public var isProbe: Bool { [.healthz, .healthzHead, .readyz, .readyzHead].contains(self) }

    var httpMethod: HTTPRequest.Method { HTTPRequest.Method.known.first { $0.rawValue == method } ?? .get }
}

extension HTTPRequest.Method {
    /// The methods the server knows: a route's path answers 405 to those it does not take, and the metrics label any
    /// other method "other".
    static let known: [HTTPRequest.Method] = [.get, .head, .post, .put, .delete, .patch, .options, .trace, .connect]
        + ["QUERY"].compactMap { HTTPRequest.Method($0) }
}

/// Which routes a listener serves (`ServerConfiguration.operatorListener`).
enum ListenerRole: Sendable {
    /// Every route: the operator's share the public listener.
    case shared
    /// The public listener beside a private operator listener: no operator route, and readiness says its status only.
    case `public`
    /// The private operator listener: the probes, `/metrics` and the operator routes.
    case `operator`

    func serves(_ endpoint: Endpoint) -> Bool {
        switch self {
        case .shared: return true
        case .public: return !endpoint.isOperatorOnly
        case .operator: return endpoint.isOperatorOnly || endpoint.isProbe
        }
    }
}

extension Router where Context == ServerRequestContext {
    /// Registers the `Endpoint`s `handlers.role` serves; any other method on a registered path answers 405 with
    /// `Allow`, an unregistered path 404.
    func register(_ handlers: ServerHandlers) {
        let endpoints = Endpoint.allCases.filter(handlers.role.serves)
        for endpoint in endpoints {
            on(RouterPath(endpoint.path), method: endpoint.httpMethod) { request, context in
                await handlers.respond(endpoint, to: request, context: context)
            }
        }
        for (path, endpoints) in Dictionary(grouping: endpoints, by: \.path) {
            let allowed = endpoints.map(\.httpMethod)
            let allow = allowed.map(\.rawValue).joined(separator: ", ")
            for method in HTTPRequest.Method.known where !allowed.contains(method) {
                on(RouterPath(path), method: method) { _, _ in
                    Response(status: .methodNotAllowed, headers: [.allow: allow])
                }
            }
        }
    }
}
