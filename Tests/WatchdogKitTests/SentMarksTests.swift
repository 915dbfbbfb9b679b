import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkStorage
import TestSupport
import Testing

@testable import WatchdogKit

/// The broker's acknowledgements are marked in the outbox in groups: a prompt's, a status's or an
/// answer's mark waits up to the delay; an escalation's is written at once and takes the others
/// with it; a graceful stop writes whatever waits.
@Suite struct SentMarksTests {
    private static let alice = try! WalkerID("alice")

    private static func row(_ seq: Int64, _ kind: OutboxItem.Kind) -> OutboxRow {
        OutboxRow(
            seq: seq,
            item: OutboxItem(
                key: "\(kind.rawValue)-\(seq)", kind: kind, walker: alice, topic: "safewalk/alice/\(kind.rawValue)",
                payload: Data("{}".utf8), retain: false, createdAt: 0))
    }

    @Test func marksWaitForTheDelayCountedFromTheOldest() {
        var marks = SentMarks(delay: 1)
        #expect(marks.dueAt == nil)
        marks.acknowledged([Self.row(1, .status)], at: 10)
        marks.acknowledged([Self.row(2, .prompt), Self.row(3, .answer)], at: 10.6)
        #expect(marks.dueAt == 11)
        #expect(marks.takeDue(now: 10.9).isEmpty)
        #expect(marks.pending.map(\.seq) == [1, 2, 3])
        #expect(marks.takeDue(now: 11).map(\.seq) == [1, 2, 3])
        #expect(marks.dueAt == nil && marks.pending.isEmpty)
        // The next wait counts from its own first acknowledgement.
        marks.acknowledged([Self.row(4, .incident)], at: 12)
        #expect(marks.dueAt == 13)
    }

    @Test func anEscalationsMarkIsDueAtOnceAndTakesEveryWaitingMark() {
        var marks = SentMarks(delay: 60)
        marks.acknowledged([Self.row(1, .status)], at: 10)
        marks.acknowledged([Self.row(2, .escalation)], at: 20)
        #expect(marks.dueAt == 10)
        #expect(marks.takeDue(now: 20).map(\.seq) == [1, 2])
        marks.acknowledged([Self.row(3, .status)], at: 21)
        #expect(marks.dueAt == 81, "the urgency went with the escalation")
    }

    @Test func noDelayMarksEachBatchAtOnceAndUnstoredRowsAreNotMarked() {
        var marks = SentMarks(delay: 0)
        marks.acknowledged([Self.row(-1, .escalation)], at: 5)
        #expect(marks.dueAt == nil, "published while SQLite failed: no row to mark")
        marks.acknowledged([Self.row(1, .prompt)], at: 5)
        #expect(marks.takeDue(now: 5).map(\.seq) == [1])
    }

    @Test func aNegativeDelayIsNoDelay() {
        var marks = SentMarks(delay: -3)
        marks.acknowledged([Self.row(1, .prompt)], at: 5)
        #expect(marks.dueAt == 5)
    }

    // MARK: The publisher, on a real SQLite file and a manual clock

    private struct Rig {
        let store: WatchStore
        let directory: URL
        let clock = ManualClock(now: 1_000)
        let bus = InMemoryMessageBus()
        let publisher: OutboxPublisher
        let run: Task<Void, Never>

        init(delay: Double) throws {
            let (pool, directory) = try SQLiteStore.temporary(migrator: WatchStore.migrator)
            store = WatchStore(database: pool)
            self.directory = directory
            var logger = Logger(label: "test.outbox")
            logger.logLevel = .critical
            publisher = OutboxPublisher(
                bus: bus, store: store, clock: clock, logger: logger, sentMarkDelay: delay)
            run = Task { [publisher] in await publisher.run() }
        }

        /// Stores items as the event loop would and hands them to the publisher.
        func publish(_ kinds: [OutboxItem.Kind]) async throws {
            let items = kinds.map { kind in
                OutboxItem(
                    key: "\(kind.rawValue)-\(UUID().uuidString)", kind: kind, walker: SentMarksTests.alice,
                    topic: "safewalk/alice/\(kind.rawValue)", payload: Data("{}".utf8), retain: false,
                    createdAt: clock.now())
            }
            publisher.enqueue(try await store.commit(watches: [], outbox: items))
        }

        func unsentKinds() throws -> [OutboxItem.Kind] { try store.unsent().map(\.item.kind) }

        func cleanUp() async {
            publisher.finish()
            await run.value
            try? FileManager.default.removeItem(at: directory)
        }
    }

    @Test func aPromptsAndAStatussMarksWaitForTheDelayThenGoTogether() async throws {
        let rig = try Rig(delay: 5)
        try await rig.publish([.prompt, .status])
        try await eventually("both acknowledged, their marks waiting") { rig.publisher.sentMarksWaiting == 2 }
        #expect(try rig.unsentKinds() == [.prompt, .status], "not marked before the delay")
        rig.clock.advance(to: 1_004.9)
        #expect(try rig.unsentKinds().count == 2)
        rig.clock.advance(to: 1_005)
        try await eventually("marked once the delay passed") { try rig.unsentKinds().isEmpty }
        #expect(try rig.store.outboxCount(for: Self.alice) == 0, "prompts and statuses are deleted once sent")
        await rig.cleanUp()
    }

    @Test func anEscalationIsMarkedAtOnceWithTheMarksWaitingBeforeIt() async throws {
        let rig = try Rig(delay: 600)
        try await rig.publish([.answer])
        try await eventually("the answer's mark waiting") { rig.publisher.sentMarksWaiting == 1 }
        try await rig.publish([.escalation])
        try await eventually("both marked without the clock moving") { try rig.unsentKinds().isEmpty }
        #expect(try rig.store.escalationCount() == (total: 1, unsent: 0), "the escalation kept as sent")
        #expect(rig.publisher.sentMarksWaiting == 0)
        await rig.cleanUp()
    }

    @Test func aGracefulStopWritesTheMarksStillWaiting() async throws {
        let rig = try Rig(delay: 600)
        try await rig.publish([.prompt, .status, .answer])
        try await eventually("three marks waiting") { rig.publisher.sentMarksWaiting == 3 }
        rig.publisher.finish()
        await rig.run.value
        #expect(try rig.unsentKinds().isEmpty)
        try? FileManager.default.removeItem(at: rig.directory)
    }
}
