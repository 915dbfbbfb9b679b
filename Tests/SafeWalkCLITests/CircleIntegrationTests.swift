import Foundation
import SafeWalkCore
import SafeWalkMQTT
import Synchronization
import TestSupport
import Testing

@testable import SafeWalkCLI

/// The built `safewalk circle …` and `safewalk watch` against the production ACL on a real
/// Mosquitto, signed in as alice; a tiny responder logged in as contacts-store plays the circle
/// owner (it knows nothing of contacts-store's own implementation).
@Suite(.holdsResources) struct CircleIntegrationTests {
    static let users = ["alice": "alice-password-1", "contacts-store": "store-password-1"]
    let alice = try! WalkerID("alice")
    let bob = try! WalkerID("bob")

    func safewalk(_ arguments: [String], port: Int) throws -> ChildProcess {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent(
            "safewalk-circle-\(UUID().uuidString).log")
        var environment = ProcessInfo.processInfo.environment
        for name in [
            "SAFEWALK_MQTT_HOST", "SAFEWALK_MQTT_PORT", "SAFEWALK_MQTT_USERNAME", "SAFEWALK_MQTT_PASSWORD",
            "SAFEWALK_TOPIC_PREFIX",
        ] { environment[name] = nil }
        environment["TZ"] = "UTC"
        return try ChildProcess(
            try Executables.product("safewalk").path,
            arguments + ["--port", "\(port)", "--username", "alice", "--password", Self.users["alice"]!],
            environment: environment, logFile: log)
    }

    func run(_ arguments: [String], port: Int) async throws -> (status: Int32, output: String) {
        let child = try safewalk(arguments, port: port)
        defer { try? FileManager.default.removeItem(at: child.logFile) }
        let status = try await child.waitForExit(within: 20)
        return (status, child.output)
    }

    /// Plays the circle owner: reads every user's commands and answers each with `answer`, after
    /// publishing the inbox events `answer` returns on the user's inbox. Keeps what it received.
    final class Owner: Sendable {
        let client: MQTTClient
        let received = Mutex<[CircleCommand]>([])
        private let loop = Mutex<Task<Void, Never>?>(nil)

        private init(client: MQTTClient) { self.client = client }

        static func start(
            on broker: MosquittoBroker, answer: @escaping @Sendable (CircleCommand) -> (CircleResult, [InboxEvent])
        ) async throws -> Owner {
            let client = try await broker.client(
                "fake-circle-owner", username: "contacts-store",
                password: CircleIntegrationTests.users["contacts-store"])
            let commands = try await client.subscribe(TopicFilter.every(.circleCommand).rawValue, qos: .atLeastOnce)
            let owner = Owner(client: client)
            let task = Task {
                for await message in commands {
                    guard let walker = Topic.parse(message.topic)?.walker,
                        let command = try? SafeWalkJSON.decode(CircleCommand.self, from: message.payload)
                    else { continue }
                    owner.received.withLock { $0.append(command) }
                    let (result, events) = answer(command)
                    for event in events {
                        try? await client.publish(Topic.inbox(walker).name(), payload: SafeWalkJSON.encode(event))
                    }
                    try? await client.publish(Topic.circleResult(walker).name(), payload: SafeWalkJSON.encode(result))
                }
            }
            owner.loop.withLock { $0 = task }
            return owner
        }

        func shutdown() async {
            loop.withLock { $0?.cancel() }
            await client.shutdown()
        }
    }

    @Test func followAsksTheOwnerAndPrintsItsAnswerOrRefusal() async throws {
        let broker = try await SecuredBroker.start(users: Self.users)
        let owner = try await Owner.start(on: broker) { command in
            command.user == "bob"
                ? (CircleResult(id: command.id, op: command.op.rawValue, ok: true), [])
                : (
                    CircleResult(
                        id: command.id, op: command.op.rawValue, ok: false,
                        error: CircleError(
                            .unknownUser, message: "Nobody called '\(command.user ?? "")' uses SafeWalk.")),
                    []
                )
        }
        let followed = try await run(["circle", "follow", " bob "], port: broker.port)
        #expect(followed.status == 0, "\(followed.output)")
        #expect(followed.output.contains("follow request sent to bob"), "\(followed.output)")
        let refused = try await run(["circle", "follow", "bobb"], port: broker.port)
        #expect(refused.status == 1, "\(refused.output)")
        #expect(refused.output.contains("error unknownUser: Nobody called 'bobb' uses SafeWalk."), "\(refused.output)")
        let commands = owner.received.withLock { $0 }
        #expect(commands.map(\.op) == [.follow, .follow])
        #expect(commands.map(\.user) == ["bob", "bobb"])
        #expect(Set(commands.map(\.id)).count == 2 && commands.allSatisfy { !$0.id.isEmpty })
        await owner.shutdown()
        await broker.shutdown()
    }

    @Test func inboxPrintsTheEventsSentAgain() async throws {
        let broker = try await SecuredBroker.start(users: Self.users)
        let bob = self.bob
        let owner = try await Owner.start(on: broker) { command in
            let events = [
                InboxEvent(id: "e-1", type: .checkedIn, from: bob, at: 1_759_976_400, text: "bob checked in."),
                InboxEvent(
                    id: "e-2", type: .homeSafe, from: bob, at: 1_759_965_000, text: "bob is home.",
                    until: 1_760_008_200),
            ]
            return (CircleResult(id: command.id, op: command.op.rawValue, ok: true, count: events.count), events)
        }
        let inbox = try await run(["circle", "inbox"], port: broker.port)
        #expect(inbox.status == 0, "\(inbox.output)")
        #expect(
            inbox.output.contains(
                "bob checked in safe at 02:20\nbob is home safe (since 23:10, until 11:10)\n2 events in your inbox"),
            "\(inbox.output)")
        await owner.shutdown()
        await broker.shutdown()
    }

    @Test func withoutAnOwnerACommandSaysSoInBoundedTime() async throws {
        let broker = try await SecuredBroker.start(users: Self.users)
        let started = ContinuousClock.now
        let silent = try await run(["circle", "checkin", "--timeout", "0.5"], port: broker.port)
        #expect(ContinuousClock.now - started < .seconds(60), "bounded by --timeout, not a hang")
        #expect(silent.status == 1)
        #expect(
            silent.output.contains("no answer from the circle owner (contacts-store) within 0.5 s"), "\(silent.output)")
        await broker.shutdown()
    }

    @Test func watchShowsTheInboxAndSharedViewsOfItsUser() async throws {
        let broker = try await SecuredBroker.start(users: Self.users)
        let watch = try safewalk(["watch", "alice"], port: broker.port)
        defer { try? FileManager.default.removeItem(at: watch.logFile) }
        try await eventually("watch subscribed") { watch.output.contains("watching safewalk/alice/#") }
        let store = try await broker.client(
            "fake-circle-owner", username: "contacts-store", password: Self.users["contacts-store"])
        let shared = Topic.shared(for: alice, of: bob)
        let view = SharedView(
            user: bob, incident: .init(id: "i-1", level: .red, reason: .panic, duress: false, openedAt: 1_759_976_040),
            position: SharedPosition(lat: 30.2849, lon: -97.7341, acc: 8, tst: 1_759_976_100, batt: 61),
            updatedAt: 1_759_976_100)
        try await store.publish(shared, payload: SafeWalkJSON.encode(view), retain: true)
        var alert = InboxEvent(id: "e-9", type: .alert, from: bob, at: 1_759_976_040, text: "bob needs help.")
        alert.reason = .panic
        alert.level = .red
        try await store.publish(Topic.inbox(alice).name(), payload: SafeWalkJSON.encode(alert))
        try await store.publish(shared, payload: Data(), retain: true)
        try await eventually("the inbox and both shared lines") { watch.output.contains("no longer shared") }
        watch.signal(SIGINT)
        _ = try await watch.waitForExit(within: 10)
        let output = watch.output
        #expect(
            output.contains("SHARED     bob needs help (panic, red) since 02:14 — 30.28490, -97.73410 ±8 m at 02:15"),
            "\(output)")
        #expect(
            output.contains("INBOX      ALERT bob needs help (panic, red) at 02:14 — no known position"), "\(output)")
        #expect(output.contains("SHARED     bob is no longer shared with you"), "\(output)")
        await store.shutdown()
        await broker.shutdown()
    }
}
