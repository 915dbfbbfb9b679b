import Foundation
import SafeWalkCore
import Testing

@testable import WatchdogKit

/// When an escalation without the notifier's receipt goes out again: pure, in virtual time.
@Suite struct EscalationReceiptsTests {
    static let alice = try! WalkerID("alice")
    static let bob = try! WalkerID("bob")

    static func row(_ id: String, _ walker: WalkerID = alice, kind: OutboxItem.Kind = .escalation) -> OutboxRow {
        OutboxRow(
            seq: 1,
            item: OutboxItem(
                key: id, kind: kind, walker: walker, topic: "safewalk/\(walker)/escalation", payload: Data(),
                retain: false, createdAt: 0))
    }

    /// The ids due at `now` (taken, as the watcher takes them).
    static func due(_ receipts: inout EscalationReceipts, _ now: EpochSeconds) -> [String] {
        receipts.takeDue(now: now).map(\.item.key)
    }

    static func receive(_ receipts: inout EscalationReceipts, _ id: String, _ walker: WalkerID, _ now: EpochSeconds)
        -> Bool
    {
        receipts.received(id, walker: walker, now: now)
    }

    @Test func anEscalationWithoutAReceiptIsDueAfterTheWaitThenAfterTwiceAsLongUpToTheCap() {
        var receipts = EscalationReceipts(firstWait: 5, maxWait: 12)
        receipts.published(Self.row("e1"), now: 100)
        #expect(Self.due(&receipts, 104.9).isEmpty)
        #expect(Self.due(&receipts, 105) == ["e1"])
        #expect(Self.due(&receipts, 200).isEmpty, "taken once until its copy is acknowledged")
        receipts.published(Self.row("e1"), now: 200)  // the second copy
        #expect(Self.due(&receipts, 209.9).isEmpty)
        #expect(Self.due(&receipts, 210) == ["e1"])
        receipts.published(Self.row("e1"), now: 300)  // the third: 20 s, capped at 12
        #expect(Self.due(&receipts, 311.9).isEmpty)
        #expect(Self.due(&receipts, 312) == ["e1"])
        #expect([1, 2, 3, 4].map(receipts.wait(afterCopy:)) == [5, 10, 12, 12])
    }

    @Test func aReceiptEndsTheWait() {
        var receipts = EscalationReceipts(firstWait: 5)
        receipts.published(Self.row("e1"), now: 100)
        receipts.published(Self.row("e2"), now: 100)
        #expect(Self.receive(&receipts, "e1", Self.alice, 101))
        #expect(Self.due(&receipts, 1_000) == ["e2"])
        #expect(!Self.receive(&receipts, "e1", Self.alice, 1_001), "already received")
    }

    @Test func aReceiptOnAnotherWalkersTopicChangesNothing() {
        var receipts = EscalationReceipts(firstWait: 5)
        receipts.published(Self.row("e1", Self.alice), now: 100)
        #expect(!Self.receive(&receipts, "e1", Self.bob, 101))
        #expect(Self.due(&receipts, 105) == ["e1"])
    }

    @Test func aReceiptThatOvertakesThePUBACKStartsNoWait() {
        var receipts = EscalationReceipts(firstWait: 5)
        #expect(!Self.receive(&receipts, "e1", Self.alice, 100))
        receipts.published(Self.row("e1"), now: 100.01)
        #expect(Self.due(&receipts, 1_000).isEmpty)
        #expect(receipts.pending.isEmpty)
    }

    @Test func anEarlyReceiptIsForgottenAfterAWhile() {
        var receipts = EscalationReceipts(firstWait: 5)
        _ = receipts.received("e1", walker: Self.alice, now: 100)
        _ = receipts.takeDue(now: 100 + EscalationReceipts.earlyReceiptKept)
        receipts.published(Self.row("e1"), now: 400)
        #expect(Self.due(&receipts, 405) == ["e1"])
    }

    @Test func onlyEscalationsWaitAndAnErasedWalkersAreForgotten() {
        var receipts = EscalationReceipts(firstWait: 5)
        receipts.published(Self.row("status/alice", kind: .status), now: 100)
        receipts.published(Self.row("e1", Self.alice), now: 100)
        receipts.published(Self.row("e2", Self.bob), now: 100)
        receipts.forget(Self.alice)
        #expect(Self.due(&receipts, 105) == ["e2"])
        #expect(receipts.nextDue == nil)
    }
}
