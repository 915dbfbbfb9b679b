import ContactsStoreKit
import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import SafeWalkStorage
import Synchronization
import TestSupport
import Testing

/// The service over an in-memory bus and a real temporary SQLite file.
@Suite(.holdsResources) struct ContactsServiceTests {
    let bus = InMemoryMessageBus()
    let database: ContactsDatabase
    let ids = IDSequence()

    init() throws {
        database = ContactsDatabase(pool: try SQLiteStore.temporary(migrator: ContactsDatabase.migrator).0)
    }

    func service(limit: Int = 20) async throws -> ContactsStoreService {
        let ids = self.ids
        let directory = try await ContactsDirectory(
            rules: ContactRules(limit: limit), database: database,
            makeID: { ids.next() })
        let logger = Logger(label: "test")
        return ContactsStoreService(
            bus: bus, prefix: "safewalk", directory: directory,
            reporter: RejectionReporter(service: .contactsStore, prefix: "safewalk", bus: bus, logger: logger),
            logger: logger, now: { 1_750_000_000 })
    }

    func add(_ name: String, _ phone: String, walker: String = "alice") -> MQTTMessage {
        MQTTMessage(
            topic: "safewalk/\(walker)/contacts/add",
            payload: try! SafeWalkJSON.encode(ContactAdd(name: name, phone: phone)))
    }

    func results() throws -> [ContactResult] {
        try bus.published(matching: "safewalk/alice/contacts/result").map {
            try SafeWalkJSON.decode(ContactResult.self, from: $0.payload)
        }
    }

    func lastList() throws -> ContactList? {
        try bus.published(matching: "safewalk/alice/contacts").last.map {
            #expect($0.retain)
            return try SafeWalkJSON.decode(ContactList.self, from: $0.payload)
        }
    }

    @Test func anAddIsAcknowledgedAndTheWholeListRepublished() async throws {
        let s = try await service()
        try await s.handle(add("Mum", "512 471 4441"))
        try await s.handle(add("Vanity", "1-800-FLOWERS"))
        #expect(
            try results() == [
                ContactResult(operation: .add, outcome: .ok(contactID: "c1")),
                ContactResult(operation: .add, outcome: .ok(contactID: "c2")),
            ])
        let list = try #require(try lastList())
        #expect(list.contacts.map(\.name) == ["Mum", "Vanity"])
        #expect(list.contacts.map(\.dialable) == [true, false])
    }

    @Test func aRefusedAddGetsAClearErrorAndNoNewList() async throws {
        let s = try await service()
        try await s.handle(add("Mum", "5124714441"))
        try await s.handle(add("Mum ", "5125550100"))
        #expect(
            try results().last
                == ContactResult(operation: .add, outcome: .failed(message: ContactError.duplicateName.message)))
        #expect(bus.published(matching: "safewalk/alice/contacts").count == 1)
    }

    @Test func anUnreadableCommandIsAnsweredAndReportedWithoutItsPayload() async throws {
        let s = try await service()
        try await s.handle(MQTTMessage(topic: "safewalk/alice/contacts/add", string: #"{"v":1,"name":"SECRET"}"#))
        #expect(
            try results() == [
                ContactResult(
                    operation: .add, outcome: .failed(message: "The request could not be read (missing_field)."))
            ])
        let report = try #require(bus.published(matching: "safewalk/_rejected/contacts-store").first)
        #expect(!(report.string ?? "").contains("SECRET"))
        try await s.handle(MQTTMessage(topic: "safewalk/wälker/contacts/add", string: "{}"))
        #expect(bus.published(matching: "safewalk/_rejected/contacts-store").count == 2)
    }

    @Test func aRemoveRepublishesTheListEvenWhenItBecomesEmpty() async throws {
        let s = try await service()
        try await s.handle(add("Mum", "5124714441"))
        try await s.handle(
            MQTTMessage(
                topic: "safewalk/alice/contacts/remove", payload: try SafeWalkJSON.encode(ContactRemove(id: "c1"))))
        #expect(try results().last == ContactResult(operation: .remove, outcome: .ok(contactID: "c1")))
        #expect(try lastList()?.contacts == [])
        try await s.handle(
            MQTTMessage(
                topic: "safewalk/alice/contacts/remove", payload: try SafeWalkJSON.encode(ContactRemove(id: "c1"))))
        #expect(
            try results().last
                == ContactResult(operation: .remove, outcome: .failed(message: ContactError.notFound.message)))
    }

    @Test func contactsAreStoredAndReloadedInOrder() async throws {
        try await service().handle(add("Mum", "5124714441"))
        try await service().handle(add("Dad", "5125550100"))
        let lists = try await ContactsDirectory(rules: ContactRules(), database: database).allLists()
        #expect(lists.map(\.0.rawValue) == ["alice"])
        #expect(lists.first?.1.contacts.map(\.name) == ["Mum", "Dad"])
    }

    @Test func concurrentCommandsApplyOneAtATime() async throws {
        // Each command awaits its write; without turns, all ten would pass the limit on the same
        // empty list and the list in memory would keep only the last one written.
        let directory = try await ContactsDirectory(
            rules: ContactRules(limit: 3), database: database, makeID: { [ids] in ids.next() })
        let alice = try #require(WalkerID(validating: "alice"))
        let results = await withTaskGroup(of: ContactResult.self) { group -> [ContactResult] in
            for n in 0..<10 {
                group.addTask {
                    await directory.apply(.add(ContactAdd(name: "C\(n)", phone: "51255501\(10 + n)")), for: alice).0
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.filter { $0.outcome == .failed(message: ContactError.limitReached(max: 3).message) }.count == 7)
        let inMemory = await directory.list(of: alice)
        #expect(inMemory.contacts.count == 3)
        #expect(try await database.loadAll()[alice]?.map(\.contact) == inMemory.contacts)
    }

    @Test func theLimitCountsStoredContacts() async throws {
        let s = try await service(limit: 1)
        try await s.handle(add("Mum", "5124714441"))
        try await s.handle(add("Dad", "5125550100"))
        #expect(
            try results().last
                == ContactResult(operation: .add, outcome: .failed(message: ContactError.limitReached(max: 1).message)))
    }
}

/// Predictable contact ids: c1, c2, ...
final class IDSequence: Sendable {
    private let count = Mutex(0)
    func next() -> String {
        count.withLock {
            $0 += 1; return "c\($0)"
        }
    }
}
