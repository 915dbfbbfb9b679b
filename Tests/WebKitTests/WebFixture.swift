import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import SafeWalkStorage
import SafeWalkWebKit
import TestSupport
import Testing

/// The web application on a temporary database, with in-memory broker-admin and services, a
/// manual clock for the rate limits and cheap password hashes, served over loopback HTTP.
struct WebFixture: Sendable {
    let accounts: Accounts
    let broker = FakeBrokerAdmin()
    let services = FakeServices()
    let members: any MemberDirectory
    let clock: ObservedTestClock
    let directory: URL

    /// `members`: where `_members/{w}` goes; a ``RecordingMembers`` unless a test gives the broker.
    init(settings: WebSettings = WebSettings(), members: any MemberDirectory = RecordingMembers()) throws {
        var settings = settings
        settings.publicBroker = PublicBroker(host: "mqtt.example.org", port: 8883, tls: true)
        let (pool, directory) = try SQLiteStore.temporary(migrator: WebDatabase.migrator)
        self.directory = directory
        let clock = ObservedTestClock()
        self.clock = clock
        self.members = members
        var logger = Logger(label: "web-test")
        logger.logLevel = .critical
        accounts = Accounts(
            database: WebDatabase(pool: pool), passwords: PasswordWork(hasher: PasswordHasher(rounds: 1_000)),
            keeper: broker, eraser: services, members: members, gate: RateGate(limits: settings.limits, clock: clock),
            settings: settings, logger: logger)
    }

    /// Runs `test` against the application listening on a free loopback port.
    func live(_ test: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try await WebApplication.make(accounts: accounts).test(.live, test)
    }
}

/// Requests and answers, as a client of the API writes and reads them.
extension TestClientProtocol {
    func send(
        _ method: HTTPRequest.Method, _ uri: String, json: String? = nil, session: Credentials? = nil,
        headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = headers
        if json != nil && headers[.contentType] == nil { headers[.contentType] = "application/json" }
        if let session {
            headers[.cookie] = "\(SessionCookie.name)=\(session.cookie)"
            headers[HTTPField.Name("X-CSRF-Token")!] = session.csrf
        }
        return try await execute(
            uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }

    @discardableResult
    func signUp(_ username: String, email: String? = nil, password: String = "walk-safe-1") async throws
        -> TestResponse
    {
        try await send(
            .post, "/v1/accounts",
            json:
                #"{"username":"\#(username)","email":"\#(email ?? "\(username)@example.org")","password":"\#(password)"}"#
        )
    }

    func signIn(_ username: String, password: String = "walk-safe-1") async throws -> TestResponse {
        try await send(.post, "/v1/sessions", json: #"{"username":"\#(username)","password":"\#(password)"}"#)
    }

    /// Signs in and returns the session's cookie and CSRF token.
    func session(_ username: String, password: String = "walk-safe-1") async throws -> Credentials {
        let response = try await signIn(username, password: password)
        try #require(response.status == .ok)
        return try Credentials(response)
    }
}

/// A signed-in client's two secrets.
struct Credentials: Sendable {
    var cookie: String
    var csrf: String

    init(cookie: String, csrf: String) {
        self.cookie = cookie
        self.csrf = csrf
    }

    init(_ response: TestResponse) throws {
        let setCookie = try #require(response.headers[.setCookie])
        let pair = try #require(setCookie.split(separator: ";").first)
        cookie = String(try #require(pair.split(separator: "=", maxSplits: 1).last))
        csrf = try #require(response.json["csrfToken"] as? String)
    }
}

extension TestResponse {
    /// The body as a JSON object (empty when it is not one).
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) as? [String: Any] ?? [:]
    }

    /// The refusal's `error` object: `[field, reason]`, field nil when there is none.
    var refusal: ErrorBody.Detail? {
        try? JSONDecoder().decode(ErrorBody.self, from: Data(body.readableBytesView)).error
    }
}
