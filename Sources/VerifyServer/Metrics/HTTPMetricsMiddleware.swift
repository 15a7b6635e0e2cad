import Hummingbird

/// Counts and times every HTTP request: `verify_server_http_requests_total` and
/// `verify_server_http_request_duration_seconds` by route, method and status.
///
/// The labels come from fixed sets, never from the request's text: the route is the path of the `Endpoint` the router
/// matched (so `/healthz/` counts as `/healthz`) or "unmatched", the method one the server knows or "other", so no
/// client can add label values.
struct HTTPMetricsMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let metrics: ServerMetrics

    /// The paths the router serves.
    private static let routes = Set(Endpoint.allCases.map(\.path))
    private static let methods = Set(HTTPRequest.Method.known.map(\.rawValue))

    /// The `route` label of the path the router matched: itself when it is an endpoint's, else "unmatched".
    static func route(_ matched: String?) -> String {
        guard let matched else { return "unmatched" }
        let path = matched.hasPrefix("/") ? matched : "/" + matched
        return routes.contains(path) ? path : "unmatched"
    }

    /// The `method` label of `method`: itself when the server knows it, else "other".
    static func method(_ method: HTTPRequest.Method) -> String { methods.contains(method.rawValue) ? method.rawValue : "other" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let method = Self.method(request.method)
        do {
            let response = try await next(request, context)
            // The router records the route it matched in the context's shared endpoint path.
            metrics.httpRequest(route: Self.route(context.endpointPath), method: method, status: response.status.code,
                                duration: ContinuousClock.now - start)
            return response
        } catch {
            // What Hummingbird will answer: the error's own status (e.g. 404 for an unknown path), else 500.
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            metrics.httpRequest(route: Self.route(context.endpointPath), method: method, status: status,
                                duration: ContinuousClock.now - start)
            throw error
        }
    }
}
