import Foundation
import GRDB
import SafeWalkCore

/// The notifier's memory (`notifier.sqlite`): every escalation it accepted, its plan, and the
/// state of each (escalation, channel, recipient). It is what makes delivery idempotent by
/// escalation id and lets a restart finish what a crash interrupted.
///
/// Every access is async (it waits on GRDB's queue, not on a cooperative thread) and runs to
/// the end even when the calling task is cancelled, as the synchronous calls did: GRDB's async
/// accesses stop on cancellation, and a shutdown must never drop the record of a message that
/// was sent ("sent" after a send, or "receipted" after a receipt), or the restart repeats it.
public final class DeliveryLedger: Sendable {
    let pool: DatabasePool

    public init(pool: DatabasePool) { self.pool = pool }

    /// A transaction in its own task, which does not inherit the caller's cancellation.
    func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await Task { [pool] in try await pool.write(updates) }.value
    }

    /// A read in its own task, for the same reason: shutting down never turns into "unreadable".
    func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await Task { [pool] in try await pool.read(value) }.value
    }

    /// What a target's row says about it.
    public enum State: String, Sendable, Hashable {
        /// Not attempted yet, or waiting to be retried.
        case pending
        /// A send started and was not yet recorded as finished: after a crash, unknown.
        case attempting
        case sent, failed
    }

    /// One row of progress.
    public struct Progress: Sendable, Hashable {
        public var channel: String
        public var target: DeliveryTarget
        public var state: State
        public var attempts: Int
        public var reason: String?
        /// Whether its receipt was published.
        public var receipted: Bool
    }

    /// Records a new escalation with its plan and targets in one transaction.
    /// - Returns: false when the id was already known: a duplicate, nothing to do.
    public func admit(
        _ event: EscalationEvent, plan: DeliveryPlan, targets: [(channel: String, target: DeliveryTarget)],
        now: Double
    ) async throws -> Bool {
        let eventJSON = try SafeWalkJSON.encode(event)
        let planJSON = try SafeWalkJSON.encode(plan)
        return try await write { db in
            try Self.insert(db, event, eventJSON: eventJSON, planJSON: planJSON, targets: targets, now: now)
        }
    }

    /// ``admit(_:plan:targets:now:)`` inside a caller's transaction (a ladder step's).
    static func insert(
        _ db: Database, _ event: EscalationEvent, eventJSON: Data, planJSON: Data,
        targets: [(channel: String, target: DeliveryTarget)], now: Double
    ) throws -> Bool {
        // Cached statements on every path an escalation takes: preparing one each time (SQLite's
        // parser and GRDB's authorizer) was most of the notifier's SQLite time in an alert storm.
        if try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM escalation WHERE id = ?"), arguments: [event.id])
            == true
        {
            return false
        }
        try db.cachedStatement(
            sql: "INSERT INTO escalation (id, walker, event, plan, receivedAt, done) VALUES (?, ?, ?, ?, ?, 0)"
        ).execute(arguments: [event.id, event.walker.rawValue, eventJSON, planJSON, now])
        let insertTarget = try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO delivery (escalationId, channel, targetKey, display, address, refusal,
                    state, attempts, receipted, updatedAt) VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, 0, ?)
                """)
        for (channel, target) in targets {
            try insertTarget.execute(
                arguments: [event.id, channel, target.key, target.display, target.address, target.refusal, now])
        }
        return true
    }

    /// Deletes every escalation of `walker` and its deliveries in one transaction (an erasure);
    /// a walker with none is fine. Rows name the walker only on `escalation`, so deliveries go by
    /// their escalation's id, first (they reference it).
    public func erase(_ walker: WalkerID) async throws {
        try await write { db in
            try Self.eraseLadders(db, walker)
            try db.execute(
                sql: "DELETE FROM delivery WHERE escalationId IN (SELECT id FROM escalation WHERE walker = ?)",
                arguments: [walker.rawValue])
            try db.execute(sql: "DELETE FROM escalation WHERE walker = ?", arguments: [walker.rawValue])
        }
    }

    /// Whether an escalation id has been admitted.
    public func knows(_ id: String) async throws -> Bool {
        try await read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM escalation WHERE id = ?", arguments: [id]) == true
        }
    }

    /// Escalations not yet finished (some target not final or not receipted), oldest first.
    public func unfinished() async throws -> [(event: EscalationEvent, plan: DeliveryPlan)] {
        let rows = try await read { db in
            try Row.fetchAll(db, sql: "SELECT event, plan FROM escalation WHERE done = 0 ORDER BY receivedAt")
                .map { row -> (event: Data, plan: Data) in (row["event"], row["plan"]) }
        }
        return try rows.map { row in
            (
                try SafeWalkJSON.decoder().decode(EscalationEvent.self, from: row.event),
                try SafeWalkJSON.decoder().decode(DeliveryPlan.self, from: row.plan)
            )
        }
    }

    /// Every target's progress for an escalation.
    public func progress(of escalationId: String) async throws -> [Progress] {
        try await read { db in
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM delivery WHERE escalationId = ? ORDER BY rowid"),
                arguments: [escalationId]
            ).map { row in
                Progress(
                    channel: row["channel"],
                    target: DeliveryTarget(
                        key: row["targetKey"], display: row["display"], address: row["address"],
                        refusal: row["refusal"]),
                    state: State(rawValue: row["state"]) ?? .pending, attempts: row["attempts"],
                    reason: row["reason"], receipted: row["receipted"])
            }
        }
    }

    /// Marks the start of an attempt BEFORE it is made, and returns its number.
    public func beginAttempt(_ escalationId: String, channel: String, key: String, now: Double) async throws -> Int {
        try await write { db in
            try db.cachedStatement(
                sql: """
                    UPDATE delivery SET state = 'attempting', attempts = attempts + 1, updatedAt = ?
                    WHERE escalationId = ? AND channel = ? AND targetKey = ?
                    """
            ).execute(arguments: [now, escalationId, channel, key])
            return try Int.fetchOne(
                db.cachedStatement(
                    sql: "SELECT attempts FROM delivery WHERE escalationId = ? AND channel = ? AND targetKey = ?"),
                arguments: [escalationId, channel, key]) ?? 1
        }
    }

    /// Records the outcome of an attempt: `.sent`, `.failed` (final) or `.pending` (will retry).
    public func record(
        _ state: State, reason: String? = nil, _ escalationId: String, channel: String, key: String,
        now: Double
    ) async throws {
        try await write { db in
            try db.cachedStatement(
                sql: """
                    UPDATE delivery SET state = ?, reason = ?, updatedAt = ?
                    WHERE escalationId = ? AND channel = ? AND targetKey = ?
                    """
            ).execute(arguments: [state.rawValue, reason, now, escalationId, channel, key])
        }
    }

    /// Notes that the target's receipt reached the broker.
    public func markReceipted(_ escalationId: String, channel: String, key: String) async throws {
        try await write { db in
            try db.cachedStatement(
                sql: "UPDATE delivery SET receipted = 1 WHERE escalationId = ? AND channel = ? AND targetKey = ?"
            ).execute(arguments: [escalationId, channel, key])
        }
    }

    /// Closes an escalation once every target is final and receipted; returns whether it did.
    @discardableResult
    public func finishIfComplete(_ escalationId: String) async throws -> Bool {
        try await write { db in
            let open =
                try Int.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT COUNT(*) FROM delivery WHERE escalationId = ?
                            AND (state NOT IN ('sent', 'failed') OR receipted = 0)
                            """), arguments: [escalationId]) ?? 0
            guard open == 0 else { return false }
            try db.cachedStatement(sql: "UPDATE escalation SET done = 1 WHERE id = ?").execute(arguments: [
                escalationId
            ])
            return true
        }
    }
}
