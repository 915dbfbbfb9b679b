import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkWebKit
import TestSupport
import Testing

/// `/v1/app/push` over loopback HTTP, and pushes from a real Mosquitto to the fake push service:
/// web on a temporary database, the test publishing as the watchdog, the notifier and the circle owner.
@Suite("Web Push: routes and delivery", .serialized, .holdsResources)
struct PushHTTPTests {
    struct Rig: Sendable {
        let web: WebFixture
        let broker: MosquittoBroker
        let bus: MQTTClient
        let peer: MQTTClient
        let push: WebPush
        let service: FakePushService

        func publish(_ kind: Topic.Kind, for walker: String, _ value: some Encodable) async throws {
            let topic = try #require(Topic(kind, walker: WalkerID(validating: walker)!))
            try await peer.publish(topic.name(prefix: "safewalk"), payload: try SafeWalkJSON.encode(value))
        }

        func subscriptions(of user: String) async throws -> [PushSubscription] {
            try await web.accounts.database.pushSubscriptions(usernameKey: user.lowercased())
        }
    }

    static func withRig(_ test: @escaping @Sendable (Rig, any TestClientProtocol) async throws -> Void) async throws {
        var settings = WebSettings()
        settings.push.allowLoopbackHTTP = true
        settings.push.subject = "mailto:ops@safewalk.example.org"
        settings.push.perAccount = 3
        let web = try WebFixture(settings: settings)
        let broker = try await MosquittoBroker.start()
        let bus = try await broker.client("web")
        let peer = try await broker.client("peer")
        var logger = Logger(label: "push-test")
        logger.logLevel = .critical
        let push = try await WebPush.connect(
            bus: bus, prefix: "safewalk", database: web.accounts.database, settings: settings.push, logger: logger)
        let service = try await FakePushService.start()
        let rig = Rig(web: web, broker: broker, bus: bus, peer: peer, push: push, service: service)
        let sending = Task { try await push.run() }
        do {
            try await WebApplication.make(accounts: web.accounts, push: push).test(.live) { client in
                try await withTimeout(30, "a push test") { try await test(rig, client) }
            }
        } catch {
            sending.cancel()
            throw error
        }
        sending.cancel()
        await service.shutdown()
        for client in [bus, peer] { await client.shutdown() }
        await broker.shutdown()
    }

    static func signedIn(_ client: any TestClientProtocol, _ name: String = "alice") async throws -> Credentials {
        try #require(try await client.signUp(name).status == .created)
        return try await client.session(name)
    }

    @Test func thePublicKeyIsTheVAPIDKeyAndStaysAcrossRestarts() async throws {
        try await Self.withRig { rig, client in
            let response = try await client.send(.get, "/v1/app/push")
            #expect(response.status == .ok && response.headers[.cacheControl] == "no-store")
            let key = try #require(response.json["publicKey"] as? String)
            #expect(key == rig.push.vapid.publicKey && PushBase64URL.decode(key)?.count == 65)
            // Made once and kept: a second start reads the same key from web.sqlite.
            #expect(
                try await rig.web.accounts.database.vapidKey().rawRepresentation
                    == rig.push.vapid.key.rawRepresentation)
        }
    }

    @Test func subscribingNeedsASessionAndItsCSRFToken() async throws {
        try await Self.withRig { rig, client in
            let session = try await Self.signedIn(client)
            let browser = rig.service.subscribe(applicationServerKey: rig.push.vapid.publicKey)
            let anonymous = try await client.send(.put, "/v1/app/push", json: browser.json)
            #expect(anonymous.status == .unauthorized)
            let forged = try await client.send(
                .put, "/v1/app/push", json: browser.json,
                headers: [.cookie: "\(SessionCookie.name)=\(session.cookie)"])
            #expect(forged.status == .forbidden && forged.refusal?.reason == "csrf")
            #expect(try await rig.subscriptions(of: "alice").isEmpty)
            let stored = try await client.send(.put, "/v1/app/push", json: browser.json, session: session)
            #expect(stored.status == .noContent)
            #expect(try await rig.subscriptions(of: "alice").map(\.endpoint.absoluteString) == [browser.endpoint])
        }
    }

    @Test func hostileSubscriptionsAreRefusedByField() async throws {
        try await Self.withRig { rig, client in
            let session = try await Self.signedIn(client)
            let key = rig.service.subscribe(applicationServerKey: rig.push.vapid.publicKey)
            let cases: [(String, String?, String)] = [
                (#"{"keys":{"p256dh":"\#(key.p256dh)","auth":"\#(key.auth)"}}"#, "endpoint", "missing"),
                (#"{"endpoint":7,"keys":{"p256dh":"\#(key.p256dh)","auth":"\#(key.auth)"}}"#, "endpoint", "wrongType"),
                (
                    #"{"endpoint":"https://169.254.169.254/latest","keys":{"p256dh":"\#(key.p256dh)","auth":"\#(key.auth)"}}"#,
                    "endpoint", "notAllowed"
                ),
                (
                    #"{"endpoint":"http://example.org/p","keys":{"p256dh":"\#(key.p256dh)","auth":"\#(key.auth)"}}"#,
                    "endpoint", "invalid"
                ),
                (#"{"endpoint":"\#(key.endpoint)"}"#, "p256dh", "missing"),
                (
                    #"{"endpoint":"\#(key.endpoint)","keys":{"p256dh":"AAAA","auth":"\#(key.auth)"}}"#, "p256dh",
                    "invalid"
                ),
                (
                    #"{"endpoint":"\#(key.endpoint)","keys":{"p256dh":"\#(key.p256dh)","auth":"AAAA"}}"#, "auth",
                    "invalid"
                ),
                ("[1,2]", nil, "malformedJSON"),
            ]
            for (body, field, reason) in cases {
                let response = try await client.send(.put, "/v1/app/push", json: body, session: session)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.refusal?.field?.rawValue == field && response.refusal?.reason == reason, "\(body)")
            }
            let huge = #"{"endpoint":"\#(String(repeating: "a", count: 5_000))"}"#
            #expect(
                try await client.send(.put, "/v1/app/push", json: huge, session: session).status == .contentTooLarge)
            #expect(try await rig.subscriptions(of: "alice").isEmpty)
        }
    }

    @Test func eachAccountKeepsItsNewestSubscriptionsAndMayRemoveThem() async throws {
        try await Self.withRig { rig, client in
            let session = try await Self.signedIn(client)
            let browsers = (0..<4).map { _ in rig.service.subscribe(applicationServerKey: rig.push.vapid.publicKey) }
            for browser in browsers {
                #expect(
                    try await client.send(.put, "/v1/app/push", json: browser.json, session: session).status
                        == .noContent)
            }
            // At most 3 here (SAFEWALK_PUSH_SUBSCRIPTIONS): the oldest went.
            #expect(
                Set(try await rig.subscriptions(of: "alice").map(\.endpoint.absoluteString))
                    == Set(browsers.dropFirst().map(\.endpoint)))
            let removed = try await client.send(
                .delete, "/v1/app/push", json: #"{"endpoint":"\#(browsers[3].endpoint)"}"#, session: session)
            #expect(removed.status == .noContent)
            #expect(try await rig.subscriptions(of: "alice").count == 2)
            // Someone else cannot remove alice's.
            let bob = try await Self.signedIn(client, "bob")
            _ = try await client.send(
                .delete, "/v1/app/push", json: #"{"endpoint":"\#(browsers[2].endpoint)"}"#, session: bob)
            #expect(try await rig.subscriptions(of: "alice").count == 2)
        }
    }

    @Test func aCheckInPromptArrivesDecryptedAtTheBrowsersPushService() async throws {
        try await Self.withRig { rig, client in
            let session = try await Self.signedIn(client)
            let key = try #require(try await client.send(.get, "/v1/app/push").json["publicKey"] as? String)
            let browser = rig.service.subscribe(applicationServerKey: key)
            #expect(
                try await client.send(.put, "/v1/app/push", json: browser.json, session: session).status == .noContent)
            let now = Date().timeIntervalSince1970
            try await rig.publish(.prompt, for: "alice", CheckInPrompt(id: "p-1", at: now, replyBy: now + 120))
            await rig.service.waitForMessages(1)
            let message = try #require(rig.service.messages.first)
            #expect(
                message.fields == [
                    "title": "SafeWalk: check in — are you okay?", "body": "Tap to tell SafeWalk you're okay.",
                    "tag": "checkin", "url": "/",
                ])
            #expect(message.headers["urgency"] == "high" && Int(message.headers["ttl"] ?? "") ?? 0 > 100)
            #expect(message.audience == rig.service.origin && message.subject == "mailto:ops@safewalk.example.org")
            #expect(rig.service.refusals.isEmpty)

            // The same prompt again (a QoS 1 repeat) pushes nothing; bob's prompt is not alice's.
            try await rig.publish(.prompt, for: "alice", CheckInPrompt(id: "p-1", at: now, replyBy: now + 120))
            try await rig.publish(.prompt, for: "bob", CheckInPrompt(id: "p-2", at: now, replyBy: now + 120))
            let alert = DeviceAlert(title: "Mum is on it", body: "Mum is on it: they got your alert.", actions: [])
            try await rig.publish(.alert, for: "alice", alert)
            await rig.service.waitForMessages(2)
            #expect(
                rig.service.messages.map { $0.fields["title"] } == [
                    "SafeWalk: check in — are you okay?", "Mum is on it",
                ])
        }
    }

    /// Under a duress PIN the services' topics show the incident open and red while the device's own
    /// show a cancel: nothing on `_incidents/{w}`, `_ladder/{w}` or `{w}/escalation` may become a
    /// push, only what the device is sent (here the check-in that resumes after the "cancel").
    @Test func aDuressIncidentOnTheServicesTopicsPushesNothing() async throws {
        try await Self.withRig { rig, client in
            let session = try await Self.signedIn(client)
            let browser = rig.service.subscribe(applicationServerKey: rig.push.vapid.publicKey)
            #expect(
                try await client.send(.put, "/v1/app/push", json: browser.json, session: session).status == .noContent)
            let alice = WalkerID(validating: "alice")!
            let now = Date().timeIntervalSince1970
            let incident = IncidentState(
                incident: "i-1", walker: alice, state: .open, reason: .noReply, level: .red, duress: true,
                openedAt: now)
            for topic in [Topic.incident(alice), Topic.ladder(alice), Topic.escalation(alice)] {
                try await rig.peer.publish(topic.name(prefix: "safewalk"), payload: try SafeWalkJSON.encode(incident))
            }
            try await rig.publish(.prompt, for: "alice", CheckInPrompt(id: "p-9", at: now, replyBy: now + 120))
            await rig.service.waitForMessages(1)
            #expect(rig.service.requestCount == 1)
            #expect(rig.service.messages.map { $0.fields["tag"] } == ["checkin"])
        }
    }

    @Test func aSubscriptionThePushServiceCallsGoneIsForgotten() async throws {
        try await Self.withRig { rig, client in
            let session = try await Self.signedIn(client)
            let kept = rig.service.subscribe(applicationServerKey: rig.push.vapid.publicKey)
            let revoked = rig.service.subscribe(applicationServerKey: rig.push.vapid.publicKey)
            for browser in [kept, revoked] {
                #expect(
                    try await client.send(.put, "/v1/app/push", json: browser.json, session: session).status
                        == .noContent)
            }
            rig.service.expire(revoked)
            let bob = WalkerID(validating: "bob")!
            let event = InboxEvent(
                id: "e-9", type: .alert, from: bob, at: Date().timeIntervalSince1970,
                text: "bob needs help (panic, red).")
            try await rig.publish(.inbox, for: "alice", event)
            await rig.service.waitForRequests(2)
            #expect(rig.service.refusals == ["gone"])
            #expect(rig.service.messages.map { $0.fields["title"] } == ["SafeWalk: bob needs help"])
            while try await rig.subscriptions(of: "alice").count > 1 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(try await rig.subscriptions(of: "alice").map(\.endpoint.absoluteString) == [kept.endpoint])
        }
    }

    @Test func aBusyPushServiceIsTriedAgain() async throws {
        try await Self.withRig { rig, client in
            let session = try await Self.signedIn(client)
            let browser = rig.service.subscribe(applicationServerKey: rig.push.vapid.publicKey)
            #expect(
                try await client.send(.put, "/v1/app/push", json: browser.json, session: session).status == .noContent)
            rig.service.failNext(1, status: 503, retryAfter: 0)
            let now = Date().timeIntervalSince1970
            try await rig.publish(.prompt, for: "alice", CheckInPrompt(id: "p-7", at: now, replyBy: now + 120))
            await rig.service.waitForMessages(1)
            #expect(rig.service.refusals == ["scripted"] && rig.service.requestCount == 2)
        }
    }
}
