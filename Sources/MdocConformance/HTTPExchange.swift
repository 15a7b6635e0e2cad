import Foundation
#if canImport(FoundationNetworking)
// On Linux, FoundationNetworking is URLSession over the system's libcurl, the same libcurl (and OpenSSL) the
// revocation fetch already loads: no second TLS stack.
import FoundationNetworking
#endif
import MdocModel
import Verifier

/// One HTTP exchange through URLSession (FoundationNetworking on Linux: the system libcurl and OpenSSL), blocking;
/// a 429 is waited out (its Retry-After, at most 5 s) and retried, up to 30 times. Each attempt ends by `timeout`
/// whatever the server trickles. A redirect is not followed (its 3xx is the answer: the headers, an API key among
/// them, never go to another address), and an answer body past `maxBodyBytes` ends the exchange as a failure,
/// whatever its Content-Length said; FoundationNetworking buffers a 3xx's body itself, which only the time bound
/// limits.
enum HTTPExchange {
    static let maxBodyBytes = 8 << 20

    static func send(_ method: String, _ url: URL, headers: [String: String], body: JSONValue?, timeout: Double,
                     displayURL: String) throws -> (Int, Data?) {
        try send(method, url, headers: headers, body: body.map { ("application/json", Data($0.serializedBytes())) }, timeout: timeout,
                 displayURL: displayURL)
    }

    /// The exchange with a body of any content type (a wallet's form).
    static func send(_ method: String, _ url: URL, headers: [String: String], body: (contentType: String, bytes: Data)?, timeout: Double,
                     displayURL: String) throws -> (Int, Data?) {
        let label = "\(method) \(InputQuote.short(displayURL))"
        for _ in 0..<30 {
            var request = URLRequest(url: url, timeoutInterval: max(1, timeout))
            request.httpMethod = method
            if let body {
                request.setValue(body.contentType, forHTTPHeaderField: "Content-Type")
                request.httpBody = body.bytes
            }
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            let exchange = BoundedExchange(limit: maxBodyBytes)
            let session = URLSession(configuration: .ephemeral, delegate: exchange, delegateQueue: nil)
            let task = session.dataTask(with: request)
            task.resume()
            let late = exchange.done.wait(timeout: .now() + timeout) == .timedOut
            if late {
                // Cancelled and abandoned: on Linux a redirect's body can keep the task alive after cancel() until the
                // server ends it, so the call does not wait for that.
                task.cancel()
                _ = exchange.done.wait(timeout: .now() + 0.5)
            }
            session.finishTasksAndInvalidate()
            if late { throw TargetFailure(description: "\(label) gave no whole answer within \(timeout) s") }
            let answer = exchange.answer()
            if answer.overLimit {
                throw TargetFailure(description: "\(label) answered more than \(maxBodyBytes) bytes; refused")
            }
            guard let status = answer.status else {
                throw TargetFailure(description: "\(label) failed: " + (answer.error.map { $0.localizedDescription } ?? "no answer"))
            }
            guard status == 429 else { return (status, answer.data) }
            Thread.sleep(forTimeInterval: min(5, max(0.2, answer.retryAfter ?? 1)))
        }
        throw TargetFailure(description: "\(label) answered 429 (rate limited) 30 times")
    }
}

/// One exchange's answer, collected by URLSession's delegate queue and read after `done`: the body up to `limit`
/// bytes (the task is cancelled past it), redirects refused.
private final class BoundedExchange: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    private let limit: Int
    private let lock = NSLock()
    private var data = Data()
    private var status: Int?
    private var retryAfter: Double?
    private var error: (any Error)?
    private var overLimit = false

    init(limit: Int) { self.limit = limit }

    func answer() -> (data: Data?, status: Int?, retryAfter: Double?, error: (any Error)?, overLimit: Bool) {
        lock.withLock { (status == nil ? nil : data, status, retryAfter, error, overLimit) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let http = response as? HTTPURLResponse
        let declared = response.expectedContentLength
        lock.withLock {
            status = http?.statusCode
            retryAfter = (http?.value(forHTTPHeaderField: "Retry-After")).flatMap(Double.init)
            overLimit = declared > limit
        }
        completionHandler(declared > limit ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive received: Data) {
        let over = lock.withLock { () -> Bool in
            guard !overLimit, data.count + received.count <= limit else {
                overLimit = true
                return true
            }
            data.append(received)
            return false
        }
        if over { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.withLock {
            if let error, !overLimit { self.error = error; status = nil }
        }
        done.signal()
    }
}
