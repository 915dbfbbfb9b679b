import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SafeWalkWebKit
import TestSupport
import Testing

@Suite(.holdsResources) struct PasswordChangeHTTPTests {
    func change(_ client: some TestClientProtocol, _ session: Credentials, old: String, new: String) async throws
        -> TestResponse
    {
        try await client.send(
            .put, "/v1/accounts/alice/password", json: #"{"oldPassword":"\#(old)","newPassword":"\#(new)"}"#,
            session: session)
    }

    @Test func thePasswordChangesWithTheOldOneAndEveryOtherSessionEnds() async throws {
        let web = try WebFixture()
        try await web.live { client in
            try await client.signUp("alice")
            let phone = try await client.session("alice")
            let laptop = try await client.session("alice")
            let changed = try await change(client, laptop, old: "walk-safe-1", new: "new-path-2")
            #expect(changed.status == .ok && changed.json["username"] as? String == "alice")
            #expect(web.broker.state.withLock { $0.logins["alice"] } == "new-path-2")
            #expect(try await client.signIn("alice").status == .unauthorized)
            #expect(try await client.signIn("alice", password: "new-path-2").status == .ok)
            #expect(try await client.send(.delete, "/v1/sessions", session: phone).status == .unauthorized)
            #expect(try await client.send(.delete, "/v1/sessions", session: laptop).status == .noContent)
        }
    }

    @Test func aWrongOldPasswordOrAWeakNewOneChangesNothing() async throws {
        let web = try WebFixture()
        try await web.live { client in
            try await client.signUp("alice")
            let session = try await client.session("alice")
            let wrongOld = try await change(client, session, old: "walk-safe-9", new: "new-path-2")
            #expect(wrongOld.status == .forbidden)
            #expect(wrongOld.refusal?.field == .oldPassword && wrongOld.refusal?.reason == "incorrect")
            let weak = try await change(client, session, old: "walk-safe-1", new: "short")
            #expect(weak.status == .badRequest)
            #expect(weak.refusal?.field == .newPassword && weak.refusal?.reason == "tooShort")
            let missing = try await client.send(
                .put, "/v1/accounts/alice/password", json: #"{"newPassword":"new-path-2"}"#, session: session)
            #expect(missing.refusal?.field == .oldPassword && missing.refusal?.reason == "missing")
            #expect(web.broker.operations == [.createWalker])
            #expect(try await client.signIn("alice").status == .ok)
        }
    }

    @Test func whenTheBrokerCannotChangeTheLoginTheAccountKeepsItsPassword() async throws {
        let web = try WebFixture()
        try await web.live { client in
            try await client.signUp("alice")
            let session = try await client.session("alice")
            web.broker.state.withLock { $0.down = true }
            let refused = try await change(client, session, old: "walk-safe-1", new: "new-path-2")
            #expect(refused.status == .serviceUnavailable && refused.headers[.retryAfter] == "1")
            #expect(try await client.signIn("alice").status == .ok)
        }
    }
}
