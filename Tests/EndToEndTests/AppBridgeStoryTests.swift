import AsyncHTTPClient
import Foundation
import NIOCore
import SafeWalkMQTT
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 20, the walker's app API end to end: the real `web`, `broker-admin` and watchdog on the
/// broker with the dynamic-security plugin. A session's events and publishes travel as the
/// session's own broker login, which has alice's rights and no more, and ends at sign-out.
@Suite("End to end: the walker's app API", .serialized)
struct AppBridgeStoryTests {
    @Test func aSessionSeesAndSendsOnlyItsWalkersTopicsAndEndsAtSignOut() async throws {
        try await ServiceStack.withAccounts(
            services: [.watchdog], webSettings: ["SAFEWALK_APP_PRESENCE_GRACE": "1", "SAFEWALK_APP_KEEP_ALIVE": "0.5"]
        ) { stack in try await story(stack) }
    }

    func story(_ stack: ServiceStack) async throws {
        for user in ["alice", "bob"] {
            let created = try await stack.web().signUp(user, password: "walk-safe-1")
            #expect(created.status == 201, "\(created.text)")
        }
        let alice = try #require(try await stack.web().signIn("alice", "walk-safe-1").session)
        let bob = try #require(try await stack.web().signIn("bob", "walk-safe-1").session)
        let web = stack.web()

        let current = try await web.send("GET", "/v1/sessions/current", json: nil, session: alice, csrf: false)
        #expect(current.status == 200 && current.decoded([String: AnyCodable].self)?["csrfToken"] != nil)

        let observer = try await stack.broker.client(
            username: SecuredBroker.observer, password: ServiceStack.password(for: SecuredBroker.observer))
        let presence = try await observer.subscribe("safewalk/alice/presence", qos: .atLeastOnce)

        let aliceEvents = try AppEventStream(port: web.port, session: alice)
        let bobEvents = try AppEventStream(port: web.port, session: bob)
        try await aliceEvents.wait(for: #"event: bridge"# + "\n" + #"data: {"state":"connected"}"#)
        try await bobEvents.wait(for: #"{"state":"connected"}"#)

        #expect(try await publish(web, alice, #"{"kind":"presence","payload":"online"}"#).status == 202)
        #expect(try await presence.first(1, within: 30).map(\.string) == ["online"])
        let sent = try await publish(web, alice, #"{"kind":"action","payload":{"v":1,"action":"start","id":"app-a1"}}"#)
        #expect(sent.status == 202 && sent.text == #"{"published":true}"#, "\(sent.text)")
        try await aliceEvents.wait(for: "event: action/result")
        try await aliceEvents.wait(for: "app-a1")
        try await aliceEvents.wait(for: "event: status")

        // Through web, a session can name only its own walker's inputs: no kind reaches another id.
        for body in [
            #"{"kind":"../bob/action","payload":{}}"#, #"{"kind":"bob/action","payload":{}}"#,
            #"{"kind":"status","payload":{}}"#,
        ] {
            let refused = try await publish(web, alice, body)
            #expect(refused.status == 400 && refused.refusal?.field == "kind", "\(body): \(refused.text)")
        }
        #expect(try await publish(web, alice, #"{"kind":"fix","payload":{}}"#, csrf: false).status == 403)
        let big = #"{"kind":"reply","payload":""# + String(repeating: "x", count: 9_000) + #""}"#
        #expect(try await publish(web, alice, big).status == 413)

        // The session's broker login itself (as the cookie's holder could use it directly):
        // alice's topics yes, bob's and the services' no.
        let token = AppSessionLogin.token(fromCookie: alice.cookie)
        let login = AppSessionLogin.username("alice", token: token)
        let password = AppSessionLogin.password(token: token)
        let direct = try await stack.broker.client(username: login, password: password)
        var spies: [MQTTSubscription] = []
        for filter in ["#", "safewalk/bob/status", "safewalk/+/action/result", "safewalk/_incidents/+"] {
            do {
                spies.append(try await direct.subscribe(filter, qos: .atLeastOnce))
            } catch MQTTError.subscriptionRefused {
                continue
            }
        }
        try await direct.publish("safewalk/bob/action", string: #"{"v":1,"action":"start","id":"forged-b1"}"#)
        try await direct.publish("safewalk/alice/action", string: #"{"v":1,"action":"stop","id":"app-a2"}"#)
        try await aliceEvents.wait(for: "app-a2")
        let bobSent = try await publish(
            web, bob, #"{"kind":"action","payload":{"v":1,"action":"start","id":"bob-b2"}}"#)
        #expect(bobSent.status == 202)
        try await bobEvents.wait(for: "bob-b2")
        #expect(!bobEvents.text.contains("forged-b1"), "alice's login started a watch for bob")
        #expect(!bobEvents.text.contains("app-a"), "bob's stream showed alice's")
        #expect(!aliceEvents.text.contains("bob-b2"), "alice's stream showed bob's")
        for spy in spies {
            let seen = await spy.drained().map(\.topic)
            #expect(seen.allSatisfy { $0.hasPrefix("safewalk/alice/") }, "alice's login read \(seen)")
        }
        await direct.shutdown()

        // The last stream drops: `offline` after the grace (1 s here), retained, as alice's login.
        let dropped = ContinuousClock.now
        aliceEvents.close()
        #expect(try await presence.first(1, within: 30).map(\.string) == ["offline"])
        #expect(ContinuousClock.now - dropped >= .milliseconds(900), "offline before the grace ran out")

        // Sign-out revokes the login: the cookie publishes nothing more, the login cannot connect.
        let out = try await web.send("DELETE", "/v1/sessions", json: nil, session: alice)
        #expect(out.status == 204)
        let after = try await publish(web, alice, #"{"kind":"fix","payload":{}}"#)
        #expect(after.status == 401 && after.refusal?.reason == "unauthenticated")
        let refusal = try await stack.broker.refusal(username: login, password: password)
        #expect(refusal != nil, "the revoked login still connects")
        bobEvents.close()
        await observer.shutdown()
    }

    func publish(_ web: WebClient, _ session: WebSession, _ body: String, csrf: Bool = true) async throws
        -> WebResponse
    {
        try await web.send("POST", "/v1/app/publish", body: Array(body.utf8), headers: session.headers(csrf: csrf))
    }
}

/// Any JSON value, to check a key is there.
struct AnyCodable: Decodable {
    init(from decoder: any Decoder) throws {}
}

/// `GET /v1/app/events` over loopback as `session`'s browser tab: everything received so far,
/// and `close()` to drop the connection as a closed tab does.
///
/// A plain socket read on its own thread: closing it is certain to reach `web` at once. (Task
/// cancellation of an AsyncHTTPClient body left the connection open now and then in the full
/// suite, and `web` never saw the tab go.)
final class AppEventStream: Sendable {
    private let received = Mutex("")
    private let socket: Int32

    init(port: Int, session: WebSession) throws {
        let fd = try Loopback.connectedSocket(port: port)
        socket = fd
        let request =
            "GET /v1/app/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(session.cookie)\r\n"
            + "Accept: text/event-stream\r\n\r\n"
        _ = request.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(fd, &buffer, buffer.count, 0)
                guard count > 0 else { break }
                append(String(decoding: buffer[0..<count], as: UTF8.self))
            }
            append("\n[ended]")
        }
    }

    var text: String { received.withLock { $0 } }

    private func append(_ more: String) { received.withLock { $0 += more } }

    /// Waits until the stream holds `needle`.
    func wait(for needle: String, within seconds: Double = 15) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !text.contains(needle) {
            guard ContinuousClock.now < deadline else { throw HarnessError.timedOut("\(needle) in:\n\(text)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Drops the connection (its reading thread ends on the closed socket).
    func close() { _ = Glibc.shutdown(socket, Int32(SHUT_RDWR)) }

    deinit { Glibc.close(socket) }
}
