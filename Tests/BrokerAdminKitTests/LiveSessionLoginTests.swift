import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// Issue 20 on the real broker with the plugin and the real `broker-admin`: a web app session's
/// login `{w}.app-{session}` has exactly its walker's device rights (role `app-{w}`), and ends
/// with `deleteSession`, `disable` and the erasure.
@Suite("Live session logins through broker-admin", .serialized, .holdsResources)
struct LiveSessionLoginTests {
    static let session = "0123456789abcdef"
    static let password = "pw-derived-session-login"

    @Test func aSessionLoginWritesAndReadsItsWalkersTopicsAndNothingElse() async throws {
        let stack = try await AccountsStack.start()
        for user in ["alice", "bob"] {
            #expect(try await stack.run(.createWalker, user, password: "pw-\(user)-1234").ok)
        }
        #expect(
            try await stack.run(.createSession, "alice", password: Self.password, session: Self.session, id: "s1")
                == AccountCommandResult(id: "s1", ok: true))
        let app = try await stack.login("alice.app-\(Self.session)", Self.password)

        // Writes: alice's inputs reach the services; bob's topics and service topics never do.
        let ingest = try await stack.service("location-ingest")
        let fixes = try await ingest.subscribe("safewalk/+/fix", qos: .atLeastOnce)
        let watchdog = try await stack.service("watchdog")
        let actions = try await watchdog.subscribe("safewalk/+/action", qos: .atLeastOnce)
        let operatorLogin = try await stack.service("operator")
        let serviceTopics = try await operatorLogin.subscribe("safewalk/_incidents/+", qos: .atLeastOnce)
        let statuses = try await operatorLogin.subscribe("safewalk/+/status", qos: .atLeastOnce)
        try await app.publish("safewalk/bob/fix", string: "forged")
        try await app.publish("safewalk/bob/action", string: "forged")
        try await app.publish("safewalk/_incidents/alice", string: "forged")
        try await app.publish("safewalk/alice/status", string: "forged: the watchdog's to write")
        try await app.publish("safewalk/_accounts/command", string: "forged")
        try await app.publish("safewalk/alice/fix", string: "own")
        try await app.publish("safewalk/alice/action", string: "own")
        #expect(try await fixes.first(1).map(\.topic) == ["safewalk/alice/fix"])
        #expect(try await actions.first(1).map(\.topic) == ["safewalk/alice/action"])
        try await watchdog.publish("safewalk/_incidents/zz", string: "marker")
        #expect(try await serviceTopics.first(1).map(\.topic) == ["safewalk/_incidents/zz"])
        try await watchdog.publish("safewalk/zz/status", string: "marker")
        #expect(try await statuses.first(1).map(\.topic) == ["safewalk/zz/status"])

        // Reads: every way in, only alice's own read topics arrive; never bob's, never a
        // service topic, never the accounts traffic (commands carry passwords).
        var spies: [MQTTSubscription] = []
        for filter in [
            "#", "safewalk/#", "safewalk/+/status", "safewalk/bob/status", "safewalk/_incidents/+",
            "safewalk/_accounts/#", "safewalk/alice/#",
        ] {
            do {
                spies.append(try await app.subscribe(filter, qos: .atLeastOnce))
            } catch MQTTError.subscriptionRefused {
                continue
            }
        }
        let own = try await app.subscribe("safewalk/alice/status", qos: .atLeastOnce)
        try await watchdog.publish("safewalk/bob/status", string: "bob's status")
        try await watchdog.publish("safewalk/_incidents/alice", string: "the services' view")
        #expect(try await stack.run(.createSession, "bob", password: Self.password, session: Self.session).ok)
        try await watchdog.publish("safewalk/alice/status", string: "alice's status")
        #expect(try await own.first(1).map(\.string) == ["alice's status"])
        for spy in spies {
            let seen = await spy.drained().map(\.topic)
            #expect(seen.allSatisfy { $0 == "safewalk/alice/status" }, "the session read: \(seen)")
        }

        // Revoked: disconnected at once and refused; another session of alice's is untouched.
        #expect(try await stack.run(.createSession, "alice", password: Self.password, session: "fedcba9876543210").ok)
        #expect(try await stack.run(.deleteSession, "alice", session: Self.session, id: "d1").ok)
        try await stack.expectDisconnected(app)
        #expect(try await stack.refusal("alice.app-\(Self.session)", Self.password)?.isRefusal == true)
        #expect(try await stack.refusal("alice.app-fedcba9876543210", Self.password) == nil)
        for client in [app, ingest, watchdog, operatorLogin] { await client.shutdown() }
        await stack.shutdown()
    }

    @Test func disableAndErasureEndEverySessionLogin() async throws {
        let stack = try await AccountsStack.start()
        for user in ["alice", "bob"] {
            #expect(try await stack.run(.createWalker, user, password: "pw-\(user)-1234").ok)
            #expect(try await stack.run(.createSession, user, password: Self.password, session: Self.session).ok)
        }
        let app = try await stack.login("alice.app-\(Self.session)", Self.password)
        #expect(try await stack.run(.disable, "alice").ok)
        try await stack.expectDisconnected(app)
        #expect(try await stack.refusal("alice.app-\(Self.session)", Self.password)?.isRefusal == true)
        #expect(
            try await stack.run(.createSession, "alice", password: Self.password, session: Self.session, id: "r1")
                == AccountCommandResult(id: "r1", ok: false, error: .refused), "no session for a disabled walker")
        #expect(try await stack.run(.enable, "alice").ok)
        #expect(try await stack.run(.createSession, "alice", password: Self.password, session: Self.session).ok)
        #expect(try await stack.refusal("alice.app-\(Self.session)", Self.password) == nil)
        #expect(try await stack.erase("alice").ok)
        #expect(try await stack.refusal("alice.app-\(Self.session)", Self.password)?.isRefusal == true)
        #expect(try await stack.refusal("bob.app-\(Self.session)", Self.password) == nil, "bob's session stays")
        await app.shutdown()
        await stack.shutdown()
    }
}
