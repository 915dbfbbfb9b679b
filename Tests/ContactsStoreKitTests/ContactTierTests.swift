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

/// Backup contacts (`tier: 2`, "only if nobody answers"): accepted, persisted, published; any
/// other tier refused in words, like the other validation errors.
@Suite(.holdsResources) struct ContactTierTests {
    let bus = InMemoryMessageBus()
    let database: ContactsDatabase
    let ids = IDSequence()
    let alice = try! WalkerID("alice")

    init() throws {
        database = ContactsDatabase(pool: try SQLiteStore.temporary(migrator: ContactsDatabase.migrator).0)
    }

    func service() async throws -> ContactsStoreService {
        let ids = self.ids
        let directory = try await ContactsDirectory(
            rules: ContactRules(), database: database, makeID: { ids.next() })
        let logger = Logger(label: "test")
        return ContactsStoreService(
            bus: bus, prefix: "safewalk", directory: directory,
            reporter: RejectionReporter(service: .contactsStore, prefix: "safewalk", bus: bus, logger: logger),
            logger: logger, now: { 1_750_000_000 })
    }

    func add(_ json: String) -> MQTTMessage {
        MQTTMessage(topic: "safewalk/alice/contacts/add", payload: Data(json.utf8))
    }

    func lastListJSON() throws -> [[String: Any]] {
        let payload = try #require(bus.published(matching: "safewalk/alice/contacts").last?.payload)
        let object = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
        return try #require(object["contacts"] as? [[String: Any]])
    }

    @Test func theRuleAcceptsTiersOneAndTwoAndRefusesTheRest() throws {
        let rules = ContactRules()
        #expect(try rules.add(ContactAdd(name: "Mum", phone: "5124714441"), id: "c1", to: []).tier == 1)
        #expect(try rules.add(ContactAdd(name: "Mum", phone: "5124714441", tier: 1), id: "c1", to: []).tier == 1)
        let dad = try rules.add(ContactAdd(name: "Dad", phone: "5125550102", tier: 2), id: "c2", to: [])
        #expect(dad.tier == 2 && dad.contact.tier == 2 && dad.contact.ladderTier == 2)
        for tier in [0, 3, -1, 99] {
            #expect(throws: ContactError.invalidTier) {
                try rules.add(ContactAdd(name: "X", phone: "5125550103", tier: tier), id: "c3", to: [])
            }
        }
    }

    @Test func aBackupIsPublishedWithTierTwoAndAFirstTierContactWithoutTier() async throws {
        let s = try await service()
        try await s.handle(add(#"{"v":1,"name":"Mum","phone":"512 471 4441"}"#))
        try await s.handle(add(#"{"v":1,"name":"Dad","phone":"512 555 0102","tier":2}"#))
        try await s.handle(add(#"{"v":1,"name":"Sis","phone":"512 555 0103","tier":1}"#))
        let contacts = try lastListJSON()
        #expect(contacts.count == 3)
        #expect(contacts[0]["tier"] == nil, "tier 1 is omitted, so existing payloads are unchanged")
        #expect(contacts[1]["tier"] as? Int == 2)
        #expect(contacts[2]["tier"] == nil)
        let list = try SafeWalkJSON.decode(
            ContactList.self, from: try #require(bus.published(matching: "safewalk/alice/contacts").last).payload)
        #expect(list.contacts.map(\.ladderTier) == [1, 2, 1])
    }

    @Test func anInvalidTierIsRefusedOnTheResultTopicAndNothingIsStored() async throws {
        let s = try await service()
        try await s.handle(add(#"{"v":1,"name":"Dad","phone":"512 555 0102","tier":3}"#))
        let results = try bus.published(matching: "safewalk/alice/contacts/result").map {
            try SafeWalkJSON.decode(ContactResult.self, from: $0.payload)
        }
        #expect(
            results == [ContactResult(operation: .add, outcome: .failed(message: ContactError.invalidTier.message))])
        #expect(bus.published(matching: "safewalk/alice/contacts").isEmpty)
        #expect(try await database.loadAll().isEmpty)
    }

    @Test func theTierSurvivesARestart() async throws {
        let s = try await service()
        try await s.handle(add(#"{"v":1,"name":"Mum","phone":"512 471 4441"}"#))
        try await s.handle(add(#"{"v":1,"name":"Dad","phone":"512 555 0102","tier":2}"#))
        let reloaded = try await ContactsDirectory(rules: ContactRules(), database: database).list(of: alice)
        #expect(reloaded.contacts.map(\.tier) == [nil, 2])
    }

    @Test func contactsStoredBeforeTiersExistedAreTierOne() async throws {
        // A database at the first migration, with a contact, then migrated.
        let (pool, _) = try SQLiteStore.temporary(migrator: DatabaseMigrator())
        try ContactsDatabase.migrator.migrate(pool, upTo: "v1")
        try await pool.write { db in
            try db.execute(
                sql: "INSERT INTO contact (id, walker, name, rawPhone) VALUES ('c1', 'alice', 'Mum', '5124714441')")
        }
        try ContactsDatabase.migrator.migrate(pool)
        let old = try await ContactsDatabase(pool: pool).loadAll()
        #expect(old[alice]?.map(\.tier) == [1])
        #expect(old[alice]?.first?.contact.tier == nil)
    }
}
