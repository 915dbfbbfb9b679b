import SafeWalkCore

/// When the broker's acknowledgements of outbox rows are written back to SQLite (issue 22: at
/// walking pace every PUBACK arrived alone and paid for its own transaction).
///
/// A sent mark only spares a row from being published again after a restart. Until it is
/// written the row is still in the outbox, so a crash publishes it again with the same id (a
/// prompt, an answer, an escalation) or the same retained state, which every reader already
/// takes once (docs/CONTRACT.md, "Ids and repeats"). So marks may wait, up to `delay`, and go
/// in one transaction. An escalation's mark does not wait: it is the audit trail's "sent", and
/// it takes every mark waiting with it.
struct SentMarks {
    /// At most this long between a PUBACK and its mark; 0 writes every batch at once.
    let delay: Double
    private(set) var pending: [OutboxRow] = []
    private var oldest: EpochSeconds?
    private var urgent = false

    init(delay: Double) {
        self.delay = max(0, delay)
    }

    /// Rows the broker acknowledged at `now`. Rows never stored (published while SQLite was
    /// failing, `seq` < 0) have nothing to mark.
    mutating func acknowledged(_ rows: [OutboxRow], at now: EpochSeconds) {
        let stored = rows.filter { $0.seq >= 0 }
        guard !stored.isEmpty else { return }
        if pending.isEmpty { oldest = now }
        pending += stored
        if stored.contains(where: { $0.item.kind == .escalation }) { urgent = true }
    }

    /// When the waiting marks must be written, if any wait.
    var dueAt: EpochSeconds? {
        oldest.map { urgent ? $0 : $0 + delay }
    }

    /// Every waiting mark if they are due at `now`, else none.
    mutating func takeDue(now: EpochSeconds) -> [OutboxRow] {
        guard let dueAt, dueAt <= now else { return [] }
        return takeAll()
    }

    /// Every waiting mark (at shutdown).
    mutating func takeAll() -> [OutboxRow] {
        defer {
            pending = []
            oldest = nil
            urgent = false
        }
        return pending
    }
}
