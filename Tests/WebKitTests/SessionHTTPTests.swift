import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SafeWalkWebKit
import TestSupport
import Testing

@Suite(.holdsResources) struct SessionHTTPTests {
    @Test func signingInSetsAStrictSecureHttpOnlyCookieAndReturnsTheCSRFToken() async throws {
        let web = try WebFixture()
        try await web.live { client in
            try await client.signUp("alice")
            let response = try await client.signIn(" Alice ")
            #expect(response.status == .ok)
            #expect(response.json["username"] as? String == "alice")
            let csrf = try #require(response.json["csrfToken"] as? String)
            #expect(csrf.count == 43)
            let cookie = try #require(response.headers[.setCookie])
            let attributes = Set(
                cookie.split(separator: ";").dropFirst().map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
            #expect(cookie.hasPrefix("safewalk_session="))
            #expect(attributes.isSuperset(of: ["httponly", "secure", "samesite=strict", "path=/"]))
            #expect(attributes.contains("max-age=43200"))
            // The token is not the CSRF token, and the database keeps only its digest.
            let credentials = try Credentials(response)
            #expect(credentials.cookie != csrf)
            #expect(try await web.accounts.database.session(tokenHash: credentials.cookie, now: .now) == nil)
        }
    }

    @Test func aWrongPasswordAndAnUnknownNameGetTheSameAnswer() async throws {
        let web = try WebFixture()
        try await web.live { client in
            try await client.signUp("alice")
            let wrongPassword = try await client.signIn("alice", password: "walk-safe-2")
            let unknown = try await client.signIn("nobody")
            let notAName = try await client.signIn("not a name")
            for response in [wrongPassword, unknown, notAName] {
                #expect(response.status == .unauthorized)
                #expect(response.refusal?.reason == "badCredentials" && response.refusal?.field == nil)
                #expect(response.headers[.setCookie] == nil)
            }
            #expect(wrongPassword.body == unknown.body)
        }
    }

    @Test func tooManySignInsForOneAccountAreRefusedFromAnyAddress() async throws {
        var settings = WebSettings()
        settings.limits = RateLimits(signInPerAccount: RateRule(burst: 3, per: .seconds(300)))
        settings.trustedProxies = ["127.0.0.1", "::1"]
        let web = try WebFixture(settings: settings)
        try await web.live { client in
            try await client.signUp("alice")
            for index in 1...3 {
                let guess = try await client.send(
                    .post, "/v1/sessions", json: #"{"username":"alice","password":"guess-\#(index)!"}"#,
                    headers: [HTTPField.Name("X-Forwarded-For")!: "203.0.113.\(index)"])
                #expect(guess.status == .unauthorized)
            }
            let limited = try await client.signIn("ALICE")
            #expect(limited.status == .tooManyRequests && limited.headers[.retryAfter] == "100")
            #expect(try await client.signIn("bob").status == .unauthorized)
        }
    }

    @Test func aStateChangingRequestNeedsTheSessionsCSRFToken() async throws {
        let web = try WebFixture()
        try await web.live { client in
            try await client.signUp("alice")
            let session = try await client.session("alice")
            let noHeader = try await client.send(
                .delete, "/v1/sessions", headers: [.cookie: "\(SessionCookie.name)=\(session.cookie)"])
            #expect(noHeader.status == .forbidden && noHeader.refusal?.reason == "csrf")
            let wrong = try await client.send(
                .delete, "/v1/sessions",
                session: Credentials(cookie: session.cookie, csrf: String(session.csrf.reversed())))
            #expect(wrong.status == .forbidden && wrong.refusal?.reason == "csrf")
            let noCookie = try await client.send(
                .delete, "/v1/sessions", headers: [HTTPField.Name("X-CSRF-Token")!: session.csrf])
            #expect(noCookie.status == .unauthorized && noCookie.refusal?.reason == "unauthenticated")
            let owntracksWithoutToken = try await client.send(
                .get, "/v1/accounts/alice/owntracks", headers: [.cookie: "\(SessionCookie.name)=\(session.cookie)"])
            #expect(owntracksWithoutToken.status == .forbidden)
            #expect(web.broker.operations == [.createWalker])
        }
    }

    @Test func signingOutEndsTheSessionAndClearsTheCookie() async throws {
        let web = try WebFixture()
        try await web.live { client in
            try await client.signUp("alice")
            let session = try await client.session("alice")
            let out = try await client.send(.delete, "/v1/sessions", session: session)
            #expect(out.status == .noContent)
            #expect(out.headers[.setCookie]?.contains("Max-Age=0") == true)
            #expect(try await client.send(.delete, "/v1/sessions", session: session).status == .unauthorized)
        }
    }

    @Test func aSessionActsOnlyForItsOwnAccount() async throws {
        let web = try WebFixture()
        try await web.live { client in
            try await client.signUp("alice")
            try await client.signUp("bob")
            let alice = try await client.session("alice")
            let response = try await client.send(
                .put, "/v1/accounts/bob/password", json: #"{"oldPassword":"walk-safe-1","newPassword":"taken-over-1"}"#,
                session: alice)
            #expect(response.status == .forbidden && response.refusal?.reason == "forbidden")
            #expect(try await client.send(.delete, "/v1/accounts/bob", session: alice).status == .forbidden)
            #expect(try await client.send(.get, "/v1/accounts/bob/owntracks", session: alice).status == .forbidden)
            // The path may name the account in another case.
            #expect(try await client.send(.get, "/v1/accounts/ALICE/owntracks", session: alice).status == .ok)
        }
    }
}
