import Foundation
import HeapModule
import SafeWalkCore

/// Which published escalations still wait for the notifier's receipt, and when each goes out
/// again (docs/CONTRACT.md, "Escalation receipts"). Pure: time is passed in.
///
/// The broker's PUBACK says the broker has an escalation, not that the notifier will act on it:
/// libmosquitto acknowledges on arrival, so a notifier killed before its ledger write has lost it,
/// and a clustered broker can lose a message in a node's failover. An escalation without a
/// receipt is published again, with its own id, after `firstWait`, then after twice as long each
/// time up to `maxWait`, for as long as no receipt comes; the notifier sends nothing twice for one
/// id and answers every copy.
struct EscalationReceipts {
    struct Pending {
        var row: OutboxRow
        /// Copies published so far (the first included); names the heap entry that is current.
        var copies: Int
    }

    /// A receipt that came before the PUBACK it answers (they travel separately) is kept this
    /// long, so the PUBACK that follows starts no wait.
    static let earlyReceiptKept: Double = 120

    let firstWait: Double
    let maxWait: Double
    private(set) var pending: [String: Pending] = [:]
    private var early: [String: (walker: WalkerID, at: EpochSeconds)] = [:]
    private var due = Heap<Due>()

    private struct Due: Comparable {
        var at: EpochSeconds
        var id: String
        var copies: Int
        static func < (lhs: Self, rhs: Self) -> Bool { lhs.at < rhs.at }
        static func == (lhs: Self, rhs: Self) -> Bool { lhs.at == rhs.at }
    }

    init(firstWait: Double, maxWait: Double = 120) {
        self.firstWait = firstWait
        self.maxWait = max(firstWait, maxWait)
    }

    /// How long after its `copies`-th copy an escalation without a receipt goes out again.
    func wait(afterCopy copies: Int) -> Double {
        min(maxWait, firstWait * pow(2, Double(max(0, copies - 1))))
    }

    /// The broker acknowledged a copy of an escalation (other rows are not waited for).
    mutating func published(_ row: OutboxRow, now: EpochSeconds) {
        guard row.item.kind == .escalation else { return }
        let id = row.item.key
        if let receipt = early[id], receipt.walker == row.item.walker {
            early[id] = nil
            return
        }
        let copies = (pending[id]?.copies ?? 0) + 1
        pending[id] = Pending(row: row, copies: copies)
        due.insert(Due(at: now + wait(afterCopy: copies), id: id, copies: copies))
    }

    /// The notifier's receipt, on the walker's topic. True when the escalation was waiting for
    /// it; a receipt naming another walker's escalation changes nothing.
    @discardableResult
    mutating func received(_ id: String, walker: WalkerID, now: EpochSeconds) -> Bool {
        if let waiting = pending[id] {
            guard waiting.row.item.walker == walker else { return false }
            pending[id] = nil
            return true
        }
        early[id] = (walker, now)
        return false
    }

    /// The escalations to publish again now. Each stays pending; its next wait starts when the
    /// broker acknowledges the new copy (``published(_:now:)``).
    mutating func takeDue(now: EpochSeconds) -> [OutboxRow] {
        var rows: [OutboxRow] = []
        while let top = due.min, top.at <= now {
            due.removeMin()
            if let waiting = pending[top.id], waiting.copies == top.copies { rows.append(waiting.row) }
        }
        early = early.filter { now - $0.value.at < Self.earlyReceiptKept }
        return rows
    }

    /// When ``takeDue(now:)`` next has something (stale entries may make it early, never late).
    var nextDue: EpochSeconds? { due.min?.at }

    /// An erased walker's escalations are not published again.
    mutating func forget(_ walker: WalkerID) {
        pending = pending.filter { $0.value.row.item.walker != walker }
    }
}
