import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// The real `contacts-store` executable, a real broker, a real SQLite file.
@Suite(.holdsResources) struct ContactsIntegrationTests {
    func start(_ broker: MosquittoBroker, env extra: [String: String] = [:]) async throws -> ChildProcess {
        try await ContactsStoreProcess.start(on: broker, env: extra)
    }

    func command(
        _ client: MQTTClient, _ topic: Topic, _ payload: some Encodable & Sendable,
        results: MQTTSubscription
    ) async throws -> ContactResult {
        try await client.publish(topic.name(), payload: try SafeWalkJSON.encode(payload))
        let answer = try #require(try await results.first(1).first)
        return try SafeWalkJSON.decode(ContactResult.self, from: answer.payload)
    }

    @Test func contactsSurviveARestartAndAreRepublishedAtStartUp() async throws {
        let broker = try await MosquittoBroker.start()
        let alice = try WalkerID("alice")
        let client = try await broker.client()
        let results = try await client.subscribe(Topic.contactsResult(alice).name(), qos: .atLeastOnce)

        let first = try await start(broker, env: ["SAFEWALK_CONTACTS_LIMIT": "2"])
        let mum = try await command(
            client, .contactsAdd(alice), ContactAdd(name: "Mum ", phone: "(512) 471-4441"), results: results)
        guard case .ok(let mumID?) = mum.outcome else { Issue.record("add refused: \(mum)"); return }
        #expect(
            try await command(
                client, .contactsAdd(alice), ContactAdd(name: "Mum", phone: "5125550100"), results: results
            )
            .outcome == .failed(message: "A contact with this name already exists."))
        let dad = try await command(client, .contactsAdd(alice), ContactAdd(name: "Dad", phone: "12"), results: results)
        #expect(dad.operation == .add)
        #expect(
            try await command(
                client, .contactsAdd(alice), ContactAdd(name: "Gran", phone: "5125550111"), results: results
            )
            .outcome == .failed(message: "You already have 2 contacts, the most allowed."))
        first.signal(SIGTERM)
        #expect(try await first.waitForExit() == 0)

        // Forget the retained list, so only the restarted service can bring it back.
        try await client.publish(Topic.contacts(alice).name(), payload: Data(), retain: true)
        let lists = try await client.subscribe(Topic.contacts(alice).name(), qos: .atLeastOnce)
        let second = try await start(broker)
        let list = try SafeWalkJSON.decode(ContactList.self, from: try #require(try await lists.first(1).first).payload)
        #expect(list.contacts.map(\.name) == ["Mum", "Dad"])
        #expect(list.contacts.first?.id == mumID)
        #expect(list.contacts.map(\.phone) == ["+15124714441", "12"])
        #expect(list.contacts.map(\.dialable) == [true, false])
        #expect(list.contacts.last?.reason == .tooShort)
        second.signal(SIGTERM)
        #expect(try await second.waitForExit() == 0)
        await client.shutdown()
        await broker.shutdown()
    }
}
