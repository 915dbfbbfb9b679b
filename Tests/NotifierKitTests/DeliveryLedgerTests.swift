import Foundation
import GRDB
import NotifierKit
import SafeWalkCore
import SafeWalkStorage
import TestSupport
import Testing

/// The ledger's accesses are async, yet a shutdown (a cancelled task) never drops one: what was
/// sent is recorded as sent, or the next start would send it again.
@Suite(.holdsResources) struct DeliveryLedgerTests {
    @Test func aCancelledTaskStillRecordsTheSendItMade() async throws {
        let (pool, directory) = try SQLiteStore.temporary(migrator: DeliveryLedger.migrator)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Why the ledger cannot simply call GRDB: its async write gives up when the task is cancelled.
        let plain = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await pool.write { _ in }
        }.result
        #expect(throws: CancellationError.self) { try plain.get() }

        let ledger = DeliveryLedger(pool: pool)
        let event = Fixtures.escalation()
        let plan = PlanBuilder.plan(
            for: event, contacts: [Fixtures.ana], emergency: EmergencyNumber(), now: Fixtures.now,
            timeZone: TimeZone(identifier: "UTC")!)
        let target = DeliveryTarget(key: "+15125550101", display: "+*******0101", address: "+15125550101")
        let finished = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            _ = try await ledger.admit(event, plan: plan, targets: [("sms-http", target)], now: Fixtures.now)
            _ = try await ledger.beginAttempt(event.id, channel: "sms-http", key: target.key, now: Fixtures.now)
            try await ledger.record(.sent, event.id, channel: "sms-http", key: target.key, now: Fixtures.now)
            try await ledger.markReceipted(event.id, channel: "sms-http", key: target.key)
            return try await ledger.finishIfComplete(event.id)
        }.result
        #expect(try finished.get())
        let progress = try await ledger.progress(of: event.id)
        #expect(progress.map(\.state) == [.sent])
        #expect(progress.map(\.receipted) == [true])
        #expect(try await ledger.unfinished().isEmpty)
    }
}
