import Foundation
import GRDB
import Logging
import NotifierKit
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkStorage
import TestSupport
import Testing

/// The notifier's part of an account deletion: the walker's escalations and deliveries leave the
/// ledger and its contact list leaves memory; other walkers keep theirs; asking again is fine.
@Suite(.holdsResources) struct NotifierErasureTests {
    let pool: DatabasePool
    let ledger: DeliveryLedger
    let directory: URL
    let bob = try! WalkerID("bob")
    let target = DeliveryTarget(key: "+15125550101", display: "+*******0101", address: "+15125550101")

    init() throws {
        (pool, directory) = try SQLiteStore.temporary(migrator: DeliveryLedger.migrator)
        ledger = DeliveryLedger(pool: pool)
    }

    /// A notifier (not running: erasure needs no loop) that knows an escalation of Alex's and one
    /// of Bob's, each with a delivery, and both walkers' contact lists.
    func notifierWithTwoWalkers() async throws -> NotifierService {
        let service = try await NotifierService(
            settings: try Fixtures.settings(), bus: InMemoryMessageBus(), prefix: Fixtures.prefix, ledger: ledger,
            channels: [], clock: VirtualClock(), logger: Logger(label: "test"))
        for event in [Fixtures.escalation("esc-alex"), Fixtures.escalation("esc-bob", walker: bob)] {
            let plan = PlanBuilder.plan(
                for: event, contacts: [Fixtures.ana], emergency: EmergencyNumber(), now: Fixtures.now,
                timeZone: TimeZone(identifier: "UTC")!)
            #expect(try await ledger.admit(event, plan: plan, targets: [("sms-http", target)], now: Fixtures.now))
            await service.book.update(event.walker, contacts: [Fixtures.ana])
        }
        await service.book.settle()
        return service
    }

    func rows(_ table: String) async throws -> Int {
        try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 }
    }

    @Test func erasingAWalkerRemovesTheirLedgerRowsAndContactsAndKeepsOthers() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let service = try await notifierWithTwoWalkers()

        #expect(await service.erase(Fixtures.walker) == nil)

        #expect(try await !ledger.knows("esc-alex"))
        #expect(try await ledger.progress(of: "esc-alex").isEmpty)
        #expect(try await ledger.knows("esc-bob"))
        #expect(try await ledger.progress(of: "esc-bob").count == 1)
        #expect(try await ledger.unfinished().map(\.event.id) == ["esc-bob"])
        #expect(try await rows("escalation") == 1)
        #expect(try await rows("delivery") == 1)
        #expect(await service.book.contacts(for: Fixtures.walker).isEmpty)
        #expect(await service.book.contacts(for: bob) == [Fixtures.ana])
    }

    @Test func erasingTwiceOrAWalkerWithNothingIsFine() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let service = try await notifierWithTwoWalkers()
        #expect(await service.erase(Fixtures.walker) == nil)
        #expect(await service.erase(Fixtures.walker) == nil)
        #expect(await service.erase(try WalkerID("nobody")) == nil)
        #expect(try await rows("escalation") == 1)
    }

    @Test func aFailedWriteIsAStoreErrorAndKeepsTheContacts() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let service = try await notifierWithTwoWalkers()
        try await pool.write { db in try db.execute(sql: "DROP TABLE delivery") }

        #expect(await service.erase(Fixtures.walker) == .storeError)
        #expect(try await ledger.knows("esc-alex"), "the transaction rolled back")
        #expect(await service.book.contacts(for: Fixtures.walker) == [Fixtures.ana])
    }
}
