import Foundation
import SafeWalkBrokerPolicy
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

@testable import SafeWalkCLI

/// The CLI against a real Mosquitto: in-process clients and the built `safewalk` executable.
@Suite(.holdsResources) struct BrokerIntegrationTests {
    let alice = try! WalkerID("alice")

    func run(_ arguments: [String], within seconds: Double = 15) async throws -> (status: Int32, output: String) {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("safewalk-cli-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        var environment = ProcessInfo.processInfo.environment
        for name in [
            "SAFEWALK_MQTT_HOST", "SAFEWALK_MQTT_PORT", "SAFEWALK_MQTT_USERNAME", "SAFEWALK_MQTT_PASSWORD",
            "SAFEWALK_TOPIC_PREFIX",
        ] { environment[name] = nil }
        let child = try ChildProcess(
            try Executables.product("safewalk").path, arguments, environment: environment, logFile: log)
        let status = try await child.waitForExit(within: seconds)
        return (status, child.output)
    }

    /// Plays contacts-store: answers each add with `outcome`.
    func responder(on broker: MosquittoBroker, outcome: @escaping @Sendable (ContactAdd) -> ContactResult.Outcome)
        async throws -> (MQTTClient, Task<Void, Never>)
    {
        let client = try await broker.client("fake-contacts-store")
        let requests = try await client.subscribe(Topic.contactsAdd(alice).name(), qos: .atLeastOnce)
        let alice = self.alice
        let task = Task {
            for await request in requests {
                guard let add = try? SafeWalkJSON.decode(ContactAdd.self, from: request.payload),
                    let payload = try? SafeWalkJSON.encode(ContactResult(operation: .add, outcome: outcome(add)))
                else { continue }
                try? await client.publish(MQTTMessage(topic: Topic.contactsResult(alice).name(), payload: payload))
            }
        }
        return (client, task)
    }

    @Test func contactAddPrintsTheStoresVerdict() async throws {
        let broker = try await MosquittoBroker.start()
        let (responderClient, task) = try await responder(on: broker) { add in
            add.phone == "512 555 0100" && add.name == "Mom"
                ? .ok(contactID: "c-1") : .failed(message: "phone number has letters")
        }
        let ok = try await run(["contact", "add", "alice", "Mom", "512 555 0100", "--port", "\(broker.port)"])
        #expect(ok.status == 0)
        #expect(ok.output.contains("ok: added Mom (id c-1)"), "\(ok.output)")
        let refused = try await run(["contact", "add", "alice", "Mom", "CALL-MOM", "--port", "\(broker.port)"])
        #expect(refused.status != 0)
        #expect(refused.output.contains("error: phone number has letters"), "\(refused.output)")
        task.cancel()
        await responderClient.shutdown()
        await broker.shutdown()
    }

    @Test func contactAddWithoutAContactsStoreSaysSoInBoundedTime() async throws {
        let broker = try await MosquittoBroker.start()
        let client = try await broker.client()
        let outcome = await #expect(throws: CLIError.noAnswer(what: "contacts-store", seconds: 0.3)) {
            try await ContactsClient(bus: client, timeout: 0.3).add(walker: alice, name: "Mom", phone: "5125550100")
        }
        #expect(outcome?.description.contains("is it running?") == true)
        await client.shutdown()
        await broker.shutdown()
    }

    @Test func contactListReadsTheRetainedListOrSaysNoContacts() async throws {
        let broker = try await MosquittoBroker.start()
        let empty = try await run(["contact", "list", "alice", "--timeout", "0.3", "--port", "\(broker.port)"])
        #expect(empty.status == 0)
        #expect(empty.output.contains("no contacts"), "\(empty.output)")

        let store = try await broker.client()
        let list = ContactList(contacts: [Contact(id: "c-1", name: "Mom", rawPhone: "512-555-0100")])
        try await store.publish(
            MQTTMessage(topic: Topic.contacts(alice).name(), payload: try SafeWalkJSON.encode(list), retain: true))
        let listed = try await run(["contact", "list", "alice", "--port", "\(broker.port)"])
        #expect(listed.status == 0)
        #expect(listed.output.contains("c-1  Mom  \(PhoneNumber.masked(list.contacts[0].phone))"), "\(listed.output)")
        #expect(!listed.output.contains("5125550100"))
        await store.shutdown()
        await broker.shutdown()
    }

    @Test func simulatePublishesPresenceActionAndMovingFixes() async throws {
        let broker = try await MosquittoBroker.start()
        // Every action is repeated until answered: without a watchdog the final stop would be
        // repeated until --answer-timeout.
        let watchdog = try await FakeWatchdog.start(on: broker, walker: alice, answerOnCopy: 1)
        let observer = try await broker.client()
        let everything = try await observer.subscribe(TopicFilter.walker(alice).rawValue, qos: .atLeastOnce)
        let result = try await run([
            "simulate", "--walker", "alice", "--interval", "0.1", "--duration", "1",
            "--destination", "Library", "--minutes", "12", "--seed", "5", "--port", "\(broker.port)",
        ])
        #expect(result.status == 0, "\(result.output)")
        // online, startWalk, a fix every 0.1 s, stop, offline. How many fixes fit in the second
        // depends on the machine's load, so read up to the final `offline` instead of counting.
        let messages = try await withTimeout(10, "the simulation's messages up to offline") {
            var seen: [MQTTMessage] = []
            for await message in everything {
                seen.append(message)
                if Topic.parse(message.topic)?.kind == .presence, Presence(payload: message.payload) == .offline {
                    break
                }
            }
            return seen
        }
        let kinds = messages.compactMap { Topic.parse($0.topic)?.kind }
        #expect(kinds.first == .presence && kinds.last == .presence)
        #expect(messages.first.flatMap { Presence(payload: $0.payload) } == .online)
        #expect(messages.last.flatMap { Presence(payload: $0.payload) } == .offline)
        // One id per action; a repeat (same id) only if an answer took longer than 2 s.
        var actions: [Action] = []
        for message in messages where Topic.parse(message.topic)?.kind == .action {
            let action = try SafeWalkJSON.decode(Action.self, from: message.payload)
            if !actions.contains(where: { $0.id == action.id }) { actions.append(action) }
        }
        #expect(actions.map(\.kind) == [.startWalk(destination: "Library", minutes: 12), .stop])
        #expect(
            result.output.contains("answer to startWalk: ok") && result.output.contains("answer to stop: ok"),
            "\(result.output)")
        let fixes = try messages.filter { Topic.parse($0.topic)?.kind == .fix }
            .map { try SafeWalkJSON.decode(LocationFix.self, from: $0.payload) }
        #expect(fixes.count >= 3)
        for (a, b) in zip(fixes, fixes.dropFirst()) { #expect(Geo.distance(a.coordinate, b.coordinate) > 5) }
        await observer.shutdown()
        await watchdog.shutdown()
        await broker.shutdown()
    }

    @Test func simulateAnswersACheckInThroughTheBroker() async throws {
        let broker = try await MosquittoBroker.start()
        let watchdog = try await broker.client()
        let replies = try await watchdog.subscribe(Topic.reply(alice).name(), qos: .atLeastOnce)
        let client = try await BrokerConnection.connect(BrokerSettings(port: broker.port))
        let log = EventLog()
        let simulation = WalkerSimulation(
            settings: SimulationSettings(walker: alice, interval: 0.05, duration: 10),
            path: .random(RandomWalk(seed: 1)), bus: client, clock: SystemSimulationClock(),
            events: { log.continuation.yield($0) })
        let run = Task { try await simulation.run() }
        _ = try await log.next("online") { $0 == .online }  // subscribed to chat and status by now
        try await watchdog.publish(
            MQTTMessage(
                topic: Topic.chat(alice).name(),
                payload: try SafeWalkJSON.encode(
                    ChatMessage(
                        id: "p1", text: "Just checking in! Reply if you're okay", tst: Date().timeIntervalSince1970))))
        let reply = try SafeWalkJSON.decode(
            Reply.self, from: try #require(try await replies.first(1, within: 30).first).payload)
        #expect(reply.text == "I'm okay 👍")
        #expect(QuickReply.lookup(reply.text)?.effect == .answersCheckIn)
        run.cancel()
        try? await run.value
        await client.shutdown()
        await watchdog.shutdown()
        await broker.shutdown()
    }

    @Test func anUnreachableBrokerGivesAClearErrorNamingHostAndPort() async throws {
        let port = try Loopback.freePort()
        let started = ContinuousClock.now
        let result = try await run(["contact", "list", "alice", "--port", "\(port)", "--connect-timeout", "1"])
        #expect(ContinuousClock.now - started < .seconds(60), "bounded by --connect-timeout, not a hang")
        #expect(result.status != 0)
        #expect(
            result.output.contains("cannot reach the MQTT broker at 127.0.0.1:\(port) within 1 s"), "\(result.output)")
        await #expect(throws: CLIError.brokerUnreachable(host: "127.0.0.1", port: port, seconds: 0.3, detail: nil)) {
            _ = try await BrokerConnection.connect(BrokerSettings(port: port, connectTimeout: 0.3))
        }
    }

    @Test func refusedCredentialsAreReportedAsSuch() async throws {
        let broker = try await SecuredBroker.start(users: ["alice": "right-password"])
        let error = await #expect(throws: CLIError.self) {
            _ = try await BrokerConnection.connect(
                BrokerSettings(port: broker.port, username: "alice", password: "wrong"))
        }
        guard case .credentialsRefused(_, let port, let username, _)? = error else {
            Issue.record("expected credentialsRefused, got \(String(describing: error))")
            await broker.shutdown()
            return
        }
        #expect(port == broker.port && username == "alice")
        let result = try await run([
            "watch", "alice", "--port", "\(broker.port)", "--username", "alice", "--password", "nope",
        ])
        #expect(result.status != 0)
        #expect(result.output.contains("refused the login as 'alice'"), "\(result.output)")
        let client = try await BrokerConnection.connect(
            BrokerSettings(port: broker.port, username: "alice", password: "right-password"))
        await client.shutdown()
        await broker.shutdown()
    }

    @Test func serviceUsersMatchTheBrokerACL() throws {
        let acl = try String(
            contentsOf: SecuredBroker.repositoryRoot.appendingPathComponent("mosquitto/acl"), encoding: .utf8)
        #expect(Set(try BrokerACL(parsing: acl).users.map(\.name)) == Set(UserNameRule.serviceUsers))
    }
}
