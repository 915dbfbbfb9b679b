import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SafeWalkCore
import SafeWalkWebKit
import TestSupport
import Testing

/// Sessions and their broker logins (issue 20) over loopback HTTP, with broker-admin in memory:
/// made at sign-in, revoked at sign-out, at a password change and when expired; the session
/// read back and slid by `GET /v1/sessions/current`; the publish route's refusals.
@Suite("The walker's app: sessions and their broker logins", .holdsResources)
struct AppSessionHTTPTests {
    func login(_ user: String, cookie: String) -> String {
        SessionLogin(user: try! WalkerID(user), tokenHash: Secrets.digest(cookie)).username
    }

    @Test func signInMakesTheSessionsLoginAndSignOutRevokesIt() async throws {
        let web = try WebFixture()
        try await web.live { client in
            try await client.signUp("alice")
            let session = try await client.session("alice")
            let name = login("alice", cookie: session.cookie)
            #expect(web.broker.sessionLogins == [name])
            let made = try #require(web.broker.sessionCommands.first)
            #expect(made.op == .createSession && made.password == SessionLogin.password(token: session.cookie))
            #expect(made.password != session.cookie && made.password?.count == 43)
            #expect(try await client.send(.delete, "/v1/sessions", session: session).status == .noContent)
            #expect(web.broker.sessionLogins.isEmpty)
            #expect(web.broker.sessionCommands.map(\.op) == [.createSession, .deleteSession])
        }
    }

    @Test func aPasswordChangeRevokesEveryOtherSessionsLogin() async throws {
        let web = try WebFixture()
        try await web.live { client in
            try await client.signUp("alice")
            let kept = try await client.session("alice")
            let other = try await client.session("alice")
            #expect(web.broker.sessionLogins.count == 2)
            let changed = try await client.send(
                .put, "/v1/accounts/alice/password", json: #"{"oldPassword":"walk-safe-1","newPassword":"new-path-2"}"#,
                session: kept)
            #expect(changed.status == .ok)
            #expect(web.broker.sessionLogins == [login("alice", cookie: kept.cookie)])
            #expect(!web.broker.sessionLogins.contains(login("alice", cookie: other.cookie)))
        }
    }

    @Test func expiredSessionsAreSweptAndTheirLoginsRevoked() async throws {
        let web = try WebFixture()
        _ = try await web.accounts.signUp(
            username: "alice", email: "a@example.org", password: "walk-safe-1", client: "c")
        let past = Date().addingTimeInterval(-7_200)
        try await web.accounts.database.insertSession(
            tokenHash: "old-hash", key: "alice", csrfToken: "x", now: past, expiresAt: past.addingTimeInterval(60),
            keepAtMost: 20, login: "0123456789abcdef")
        let live = try await web.accounts.signIn(username: "alice", password: "walk-safe-1", client: "c")
        // Signing in dropped the expired row and asked for its login's deletion on the way.
        let sweeper = SessionSweeper(accounts: web.accounts)
        #expect(await sweeper.sweep() == 0)
        try await web.accounts.database.slideSession(
            tokenHash: Secrets.digest(live.token), expiresAt: Date().addingTimeInterval(-1))
        #expect(await sweeper.sweep() == 1)
        try await waitUntil { web.broker.sessionLogins.isEmpty }
        let deleted = Set(web.broker.sessionCommands.filter { $0.op == .deleteSession }.compactMap(\.session))
        #expect(deleted == ["0123456789abcdef", SessionLogin.sessionID(tokenHash: Secrets.digest(live.token))])
    }

    @Test func theCurrentSessionNeedsOnlyTheCookieAndSlides() async throws {
        let web = try WebFixture()
        try await web.live { client in
            try await client.signUp("alice")
            let session = try await client.session("alice")
            try await web.accounts.database.slideSession(
                tokenHash: Secrets.digest(session.cookie), expiresAt: Date().addingTimeInterval(100))
            let cookieOnly: HTTPFields = [.cookie: "\(SessionCookie.name)=\(session.cookie)"]
            let current = try await client.send(.get, "/v1/sessions/current", headers: cookieOnly)
            #expect(current.status == .ok)
            #expect(current.json["csrfToken"] as? String == session.csrf)
            #expect(current.json["username"] as? String == "alice")
            let expiresAt = try #require(current.json["expiresAt"] as? Int)
            #expect(abs(Double(expiresAt) - Date().addingTimeInterval(43_200).timeIntervalSince1970) < 5)
            #expect(current.headers[.setCookie]?.contains("Max-Age=4319") == true)
            let anonymous = try await client.send(.get, "/v1/sessions/current")
            #expect(anonymous.status == .unauthorized && anonymous.refusal?.reason == "unauthenticated")
        }
    }

    @Test func publishRefusesWhatItCannotSendAndSaysSoInJSON() async throws {
        let web = try WebFixture()
        try await web.live { client in
            try await client.signUp("alice")
            let session = try await client.session("alice")
            let cookieOnly: HTTPFields = [.cookie: "\(SessionCookie.name)=\(session.cookie)"]
            let noCSRF = try await client.send(
                .post, "/v1/app/publish", json: #"{"kind":"fix","payload":{}}"#, headers: cookieOnly)
            #expect(noCSRF.status == .forbidden && noCSRF.refusal?.reason == "csrf")
            let unknown = try await client.send(
                .post, "/v1/app/publish", json: #"{"kind":"status","payload":{}}"#, session: session)
            #expect(unknown.status == .badRequest && unknown.refusal?.field == .kind)
            let notJSON = try await client.send(.post, "/v1/app/publish", json: "{", session: session)
            #expect(notJSON.status == .badRequest && notJSON.refusal?.reason == "malformedJSON")
            let big = #"{"kind":"reply","payload":""# + String(repeating: "x", count: 8_300) + #""}"#
            let tooBig = try await client.send(.post, "/v1/app/publish", json: big, session: session)
            #expect(tooBig.status == .contentTooLarge)
            // No broker bridge in this fixture: the clear 503 a broker outage gives.
            let good = try await client.send(
                .post, "/v1/app/publish", json: #"{"kind":"fix","payload":{}}"#, session: session)
            #expect(good.status == .serviceUnavailable && good.refusal?.reason == "brokerUnavailable")
            let events = try await client.send(.get, "/v1/app/events", headers: cookieOnly)
            #expect(events.status == .serviceUnavailable)
            #expect(try await client.send(.get, "/v1/app/events").status == .unauthorized)
        }
    }

    func waitUntil(_ condition: @escaping @Sendable () -> Bool) async throws {
        for _ in 0..<200 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        #expect(condition())
    }
}
