import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// web's HTTP API over real loopback HTTP (AsyncHTTPClient), as a browser or the app uses it.
///
/// Each client speaks for one person's `address`, sent in `X-Forwarded-For`: a web started by
/// ``ServiceStack/startWithAccounts(services:environment:webSettings:openMetricsPorts:)`` trusts
/// 127.0.0.1 as a proxy, so tests can be many people (or one flooding address) for the
/// per-address rate limits while every request comes from loopback.
public struct WebClient: Sendable {
    public let port: Int
    public let address: String

    private static let addressesGiven = Atomic(0)

    /// An address in 172.16.0.0/12 that no other call in this process has given, so no two
    /// people of a test ever share a per-address limit by chance.
    public static func someAddress() -> String {
        let number = addressesGiven.wrappingAdd(1, ordering: .relaxed).newValue
        return "172.\(16 + number >> 16 & 0xF).\(number >> 8 & 0xFF).\(number & 0xFF)"
    }

    /// One request. `contentType` nil sends none; `declaringLength` false sends the body chunked,
    /// so web cannot refuse it from `Content-Length` and has to count while it reads.
    public func send(
        _ method: String, _ path: String, body: [UInt8]? = nil, contentType: String? = "application/json",
        headers: [(String, String)] = [], declaringLength: Bool = true
    ) async throws -> WebResponse {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = HTTPMethod(rawValue: method)
        request.headers.add(name: "X-Forwarded-For", value: address)
        if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
        request.headers.add(contentsOf: headers)
        if let body {
            let buffer = ByteBuffer(bytes: body)
            request.body =
                declaringLength
                ? .bytes(buffer)
                : .stream(
                    AsyncStream<ByteBuffer> {
                        $0.yield(buffer); $0.finish()
                    }, length: .unknown)
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let received = try await response.body.collect(upTo: 1 << 20)
        return WebResponse(
            status: Int(response.status.code), headers: response.headers, body: Data(received.readableBytesView))
    }

    /// A JSON object of strings as `application/json` (or no body), as `session` when given:
    /// its cookie, and its CSRF token unless `csrf` is false (as another site's form would).
    public func send(
        _ method: String, _ path: String, json fields: [String: String]?, session: WebSession? = nil,
        csrf: Bool = true
    ) async throws -> WebResponse {
        try await send(
            method, path, body: try fields.map { Array(try JSONEncoder().encode($0)) },
            contentType: fields == nil ? nil : "application/json", headers: session?.headers(csrf: csrf) ?? [])
    }

    /// `POST /v1/accounts`; the e-mail is `{username}@example.org` unless given.
    public func signUp(_ username: String, email: String? = nil, password: String) async throws -> WebResponse {
        try await send(
            "POST", "/v1/accounts",
            json: ["username": username, "email": email ?? "\(username)@example.org", "password": password])
    }

    /// `POST /v1/sessions`: the answer carries ``WebResponse/session`` when it was a good sign-in.
    public func signIn(_ username: String, _ password: String) async throws -> WebResponse {
        try await send("POST", "/v1/sessions", json: ["username": username, "password": password])
    }
}

/// What web answered.
public struct WebResponse: Sendable {
    public let status: Int
    let headers: HTTPHeaders
    public let body: Data

    /// The first value of the header `name` (any case).
    public func header(_ name: String) -> String? { headers[name].first }

    /// The body decoded as `T`, or nil.
    public func decoded<T: Decodable>(_ type: T.Type) -> T? {
        try? JSONDecoder().decode(type, from: body)
    }

    /// `{"error":{"field":…,"reason":…}}`, the shape of every refusal.
    public var refusal: Refusal? { decoded(RefusalBody.self)?.error }

    public struct Refusal: Decodable, Equatable, Sendable {
        public var field: String?
        public var reason: String

        public init(field: String?, reason: String) {
            self.field = field
            self.reason = reason
        }
    }

    private struct RefusalBody: Decodable { var error: Refusal }

    /// The session a good sign-in opened: its cookie and CSRF token.
    public var session: WebSession? {
        struct Answer: Decodable { var username: String; var csrfToken: String }
        guard status == 200, let answer = decoded(Answer.self),
            let cookie = header("Set-Cookie")?.split(separator: ";").first
        else { return nil }
        return WebSession(username: answer.username, cookie: String(cookie), csrfToken: answer.csrfToken)
    }
}

/// A signed-in browser: the session cookie and the CSRF token every state-changing request
/// sends back.
public struct WebSession: Sendable {
    public let username: String
    /// `safewalk_session=…`, as a `Cookie` header carries it.
    public let cookie: String
    public let csrfToken: String

    /// The cookie and the token; `csrf: false` leaves the token out, as another site's form would.
    public func headers(csrf: Bool = true) -> [(String, String)] {
        [("Cookie", cookie)] + (csrf ? [("X-CSRF-Token", csrfToken)] : [])
    }
}
