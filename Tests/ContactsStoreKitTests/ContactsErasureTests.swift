import ContactsStoreKit
import Foundation
import GRDB
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import SafeWalkStorage
import TestSupport
import Testing

/// contacts-store's part of an account deletion: the walker's contacts leave SQLite, memory and
/// the retained topic; other walkers keep theirs; asking again is fine.
@Suite(.holdsResources) struct ContactsErasureTests {
    let bus = InMemoryMessageBus()
    let pool: DatabasePool
    let database: ContactsDatabase
    let alice = WalkerID(validating: "alice")!
    let bob = WalkerID(validating: "bob")!

    init() throws {
        pool = try SQLiteStore.temporary(migrator: ContactsDatabase.migrator).0
        database = ContactsDatabase(pool: pool)
    }

    func service() async throws -> (ContactsStoreService, ContactsDirectory) {
        let ids = IDSequence()
        let directory = try await ContactsDirectory(
            rules: ContactRules(limit: 20), database: database, makeID: { ids.next() })
        let logger = Logger(label: "test")
        let service = ContactsStoreService(
            bus: bus, prefix: "safewalk", directory: directory,
            reporter: RejectionReporter(service: .contactsStore, prefix: "safewalk", bus: bus, logger: logger),
            logger: logger, now: { 1_750_000_000 })
        return (service, directory)
    }

    func add(_ name: String, _ phone: String, walker: String) -> MQTTMessage {
        MQTTMessage(
            topic: "safewalk/\(walker)/contacts/add",
            payload: try! SafeWalkJSON.encode(ContactAdd(name: name, phone: phone)))
    }

    /// The topics of the retained messages a new subscriber to `filter` is handed at once (the
    /// in-memory bus hands them over while subscribing; at least one must match).
    func retainedTopics(_ filter: String) async throws -> [String] {
        let subscription = try await bus.subscribe(filter, qos: .atLeastOnce)
        defer { subscription.cancel() }
        var batches = subscription.batches.makeAsyncIterator()
        return await batches.next()?.map(\.topic) ?? []
    }

    @Test func erasingAWalkerRemovesTheirContactsEverywhereAndKeepsOthers() async throws {
        let (service, directory) = try await service()
        try await service.handle(add("Mum", "512 471 4441", walker: "alice"))
        try await service.handle(add("Dad", "512 471 4442", walker: "bob"))

        #expect(await service.erase(alice) == nil)

        #expect(await directory.list(of: alice).contacts.isEmpty)
        #expect(await directory.list(of: bob).contacts.map(\.name) == ["Dad"])
        let stored = try await database.loadAll()
        #expect(stored[alice] == nil && stored[bob]?.count == 1)
        // A restart must not bring them back either.
        let reloaded = try await ContactsDirectory(rules: ContactRules(limit: 20), database: database)
        #expect(await reloaded.allLists().map(\.0) == [bob])
        #expect(try await retainedTopics("safewalk/+/contacts") == ["safewalk/bob/contacts"])
        let clear = try #require(bus.published(matching: "safewalk/alice/contacts").last)
        #expect(clear.retain && clear.payload.isEmpty)
    }

    @Test func erasingTwiceOrAWalkerWithNothingIsFine() async throws {
        let (service, _) = try await service()
        try await service.handle(add("Mum", "512 471 4441", walker: "alice"))
        #expect(await service.erase(alice) == nil)
        #expect(await service.erase(alice) == nil)
        #expect(await service.erase(WalkerID(validating: "nobody")!) == nil)
        #expect(try await database.loadAll().isEmpty)
    }

    @Test func aFailedWriteIsAStoreErrorAndKeepsTheList() async throws {
        let (service, directory) = try await service()
        try await service.handle(add("Mum", "512 471 4441", walker: "alice"))
        try await pool.write { db in try db.execute(sql: "DROP TABLE contact") }

        #expect(await service.erase(alice) == .storeError)
        #expect(await directory.list(of: alice).contacts.map(\.name) == ["Mum"])
        #expect(bus.published(matching: "safewalk/alice/contacts").allSatisfy { !$0.payload.isEmpty })
    }
}
