import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// One POST to a push service (RFC 8030 §5): the seam between sending and the network, so the
/// sending rules are tested against a scripted stand-in and the service uses AsyncHTTPClient.
public protocol PushTransport: Sendable {
    /// The push service's status and `Retry-After`, if it sent one; throws on a network failure.
    func post(_ request: PushRequest, timeout: Duration) async throws -> PushResponse
}

public struct PushRequest: Sendable {
    public var endpoint: URL
    /// `TTL`, `Urgency`, `Content-Encoding`, `Content-Type`, `Authorization`.
    public var headers: [(name: String, value: String)]
    public var body: Data
}

public struct PushResponse: Sendable {
    public var status: Int
    public var retryAfter: String?

    public init(status: Int, retryAfter: String? = nil) {
        self.status = status
        self.retryAfter = retryAfter
    }
}

/// AsyncHTTPClient with redirects refused: an endpoint is checked against the allowed push
/// services when it is stored, and a redirect would send the request somewhere that was not.
public final class HTTPPushTransport: PushTransport {
    let client: HTTPClient

    public init() {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        configuration.connectionPool.idleTimeout = .seconds(60)
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    public func post(_ request: PushRequest, timeout: Duration) async throws -> PushResponse {
        var http = HTTPClientRequest(url: request.endpoint.absoluteString)
        http.method = .POST
        for header in request.headers { http.headers.add(name: header.name, value: header.value) }
        http.headers.add(name: "Content-Length", value: "\(request.body.count)")
        http.body = .bytes(ByteBuffer(bytes: request.body))
        let response = try await client.execute(
            http, timeout: .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000))
        // The body is a push service's explanation at most; read a little, so the connection is reusable.
        _ = try? await response.body.collect(upTo: 16 * 1024)
        return PushResponse(status: Int(response.status.code), retryAfter: response.headers.first(name: "Retry-After"))
    }

    public func shutdown() async {
        try? await client.shutdown()
    }
}
