import Foundation
import GRDB
import SafeWalkCore

/// The watchdog's SQLite file: every watch, and the outbox of messages whose effect must
/// survive a crash (escalations, prompts, statuses). One writer: the watchdog's event loop.
public struct WatchStore: Sendable {
    public let database: DatabasePool

    public init(database: DatabasePool) {
        self.database = database
    }

    public static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE watch (
                        walker TEXT PRIMARY KEY NOT NULL,
                        watchedSince REAL, lastCheckInAt REAL, promptSentAt REAL, lastMovedAt REAL,
                        walkETA REAL, offlineSince REAL, walkDestination TEXT,
                        incidentReason TEXT, incidentLevel TEXT, incidentAt REAL,
                        stateSince REAL NOT NULL,
                        fixLat REAL, fixLon REAL, fixAcc REAL, fixTst REAL,
                        concerned INTEGER NOT NULL, recentActions TEXT NOT NULL
                    );
                    CREATE TABLE outbox (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        key TEXT NOT NULL UNIQUE,
                        kind TEXT NOT NULL,
                        walker TEXT NOT NULL,
                        topic TEXT NOT NULL,
                        payload BLOB NOT NULL,
                        retain INTEGER NOT NULL,
                        createdAt REAL NOT NULL,
                        sentAt REAL
                    );
                    CREATE INDEX outbox_unsent ON outbox(seq) WHERE sentAt IS NULL;
                    """)
        }
        migrator.registerMigration("v2: hold-to-release, PINs, duress") { db in
            try db.execute(sql: WatchRow.v2Columns)
        }
        migrator.registerMigration("v3: incident ids") { db in
            try db.execute(sql: WatchRow.v3Columns)
        }
        migrator.registerMigration("v4: walks that know where they are going") { db in
            try db.execute(sql: WatchRow.v4Columns)
        }
        migrator.registerMigration("v5: location off or paused") { db in
            try db.execute(sql: WatchRow.v5Columns)
        }
        migrator.registerMigration("v6: escalation receipts") { db in
            // Escalations sent before receipts existed count as received: an upgrade must not
            // publish the whole audit trail again.
            try db.execute(
                sql: """
                    ALTER TABLE outbox ADD COLUMN receivedAt REAL;
                    UPDATE outbox SET receivedAt = sentAt WHERE kind = 'escalation' AND sentAt IS NOT NULL;
                    CREATE INDEX outbox_unreceived ON outbox(seq)
                        WHERE kind = 'escalation' AND sentAt IS NOT NULL AND receivedAt IS NULL;
                    """)
        }
        return migrator
    }

    /// Writes changed watches and new outbox items in one transaction, and returns the items
    /// with their sequence numbers. Nothing is published before this returns.
    public func commit(watches: [Watch], outbox: [OutboxItem]) async throws -> [OutboxRow] {
        guard !watches.isEmpty || !outbox.isEmpty else { return [] }
        return try await database.write { db in
            let save = try db.cachedStatement(sql: WatchRow.upsert)
            for watch in watches { try save.execute(arguments: WatchRow.arguments(watch)) }
            // A newer status replaces an older unsent one (new seq); prompts and escalations
            // have unique keys.
            let insert = try db.cachedStatement(
                sql: """
                    INSERT OR REPLACE INTO outbox (key, kind, walker, topic, payload, retain, createdAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """)
            var rows: [OutboxRow] = []
            rows.reserveCapacity(outbox.count)
            for item in outbox {
                try insert.execute(arguments: [
                    item.key, item.kind.rawValue, item.walker.rawValue, item.topic,
                    item.payload, item.retain, item.createdAt,
                ])
                rows.append(OutboxRow(seq: db.lastInsertedRowID, item: item))
            }
            return rows
        }
    }

    /// Deletes a walker's watch and every outbox row of theirs (the escalation audit trail too)
    /// but the incident states not yet sent, and queues `clears` (the empty retained messages)
    /// behind them in the same transaction, so a crash before they are published publishes them
    /// on restart, in that order. An unsent state is the close of the walker's last incident,
    /// which the notifier needs for its all-clears even when the account goes next. Returns the
    /// queued rows.
    public func erase(_ walker: WalkerID, clearing clears: [OutboxItem]) async throws -> [OutboxRow] {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM watch WHERE walker = ?", arguments: [walker.rawValue])
            try db.execute(
                sql: "DELETE FROM outbox WHERE walker = ? AND NOT (kind = ? AND sentAt IS NULL)",
                arguments: [walker.rawValue, OutboxItem.Kind.incident.rawValue])
            return try clears.map { clear in
                try db.execute(
                    sql: """
                        INSERT INTO outbox (key, kind, walker, topic, payload, retain, createdAt)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        clear.key, clear.kind.rawValue, clear.walker.rawValue, clear.topic, clear.payload,
                        clear.retain, clear.createdAt,
                    ])
                return OutboxRow(seq: db.lastInsertedRowID, item: clear)
            }
        }
    }

    /// Outbox rows of one walker, sent or not (for tests and operators).
    public func outboxCount(for walker: WalkerID) throws -> Int {
        try database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox WHERE walker = ?", arguments: [walker.rawValue]) ?? 0
        }
    }

    /// After the broker acknowledged them: escalations are kept, marked sent (the audit trail);
    /// prompts, answers, statuses and incident states are deleted (the watch row holds the
    /// incident itself).
    public func markSent(_ rows: [OutboxRow], at now: EpochSeconds) async throws {
        guard !rows.isEmpty else { return }
        try await database.write { db in
            let mark = try db.cachedStatement(sql: "UPDATE outbox SET sentAt = ? WHERE seq = ?")
            let delete = try db.cachedStatement(sql: "DELETE FROM outbox WHERE seq = ?")
            for row in rows {
                if row.item.kind == .escalation {
                    try mark.execute(arguments: [now, row.seq])
                } else {
                    try delete.execute(arguments: [row.seq])
                }
            }
        }
    }

    /// The notifier's receipts (``EscalationReceipts``): each escalation named, of the walker
    /// named, is marked received.
    public func markReceived(_ receipts: [(id: String, walker: WalkerID)], at now: EpochSeconds) async throws {
        guard !receipts.isEmpty else { return }
        try await database.write { db in
            let mark = try db.cachedStatement(
                sql: """
                    UPDATE outbox SET receivedAt = ?
                    WHERE key = ? AND walker = ? AND kind = 'escalation' AND receivedAt IS NULL
                    """)
            for receipt in receipts { try mark.execute(arguments: [now, receipt.id, receipt.walker.rawValue]) }
        }
    }

    /// Escalations the broker acknowledged but the notifier never receipted, oldest first: a
    /// restart publishes them again.
    public func awaitingReceipt() async throws -> [OutboxRow] {
        try await database.read { db in
            try Self.fetchRows(db, sql: "SELECT * FROM outbox \(Self.awaitingReceiptFilter) ORDER BY seq")
        }
    }

    /// Escalations waiting for a receipt, for tests and operators.
    public func awaitingReceiptCount() throws -> Int {
        try database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox \(Self.awaitingReceiptFilter)") ?? 0
        }
    }

    private static let awaitingReceiptFilter = "WHERE kind = 'escalation' AND sentAt IS NOT NULL AND receivedAt IS NULL"

    /// What a restart needs: every stored watch and the outbox items not yet acknowledged, read
    /// in one snapshot on GRDB's reader queue, so restoring a large file holds no cooperative
    /// thread.
    public func restore(into engine: WatchEngine) async throws -> (engine: WatchEngine, unsent: [OutboxRow]) {
        try await database.read { db in
            var engine = engine
            try Self.restoreWatches(db, into: &engine)
            return (engine, try Self.fetchUnsent(db))
        }
    }

    /// Every stored watch into `engine`, as ``restore(into:)`` does (for benchmarks).
    public func restoreWatches(into engine: inout WatchEngine) throws {
        try database.read { db in try Self.restoreWatches(db, into: &engine) }
    }

    // Synchronous reads, for tests, tools and benchmarks (the in-process benchmark times
    // `loadWatches` inside a synchronous block); the service itself only uses the async calls.

    /// Every stored watch.
    public func loadWatches() throws -> [Watch] {
        try database.read(Self.fetchWatches)
    }

    /// Outbox items not yet acknowledged by the broker, oldest first.
    public func unsent() throws -> [OutboxRow] {
        try database.read(Self.fetchUnsent)
    }

    /// Escalation rows (sent or not), for tests and operators.
    public func escalationCount() throws -> (total: Int, unsent: Int) {
        try database.read { db in
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox WHERE kind = 'escalation'") ?? 0
            let unsent =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM outbox WHERE kind = 'escalation' AND sentAt IS NULL") ?? 0
            return (total, unsent)
        }
    }

    private static func fetchWatches(_ db: Database) throws -> [Watch] {
        var watches: [Watch] = []
        try forEachWatch(db) { watches.append($0) }
        return watches
    }

    /// Each stored watch from its row into its slot in `engine`: this thread steps SQLite and
    /// decodes the rows, a ``WatchFiler`` files them into the engine on another, batch by batch.
    private static func restoreWatches(_ db: Database, into engine: inout WatchEngine) throws {
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM watch") ?? 0
        var handed = WatchEngine(machine: engine.machine)
        swap(&handed, &engine)
        let filer = WatchFiler(into: handed, expecting: count)
        var batch: [Watch?] = []
        batch.reserveCapacity(WatchFiler.batchSize)
        do {
            try forEachWatch(db) { watch in
                batch.append(watch)
                guard batch.count == WatchFiler.batchSize else { return }
                filer.file(batch)
                batch = []
                batch.reserveCapacity(WatchFiler.batchSize)
            }
        } catch {
            engine = filer.finish()
            throw error
        }
        engine = filer.finish(batch)
    }

    /// Each readable stored watch, in turn (an unreadable walker id is skipped).
    private static func forEachWatch(_ db: Database, _ body: (consuming Watch) -> Void) throws {
        try WatchColumns.forEachRow(of: db.makeStatement(sql: WatchRow.select), in: db) { row in
            if let watch = WatchRow.watch(from: row) { body(watch) }
        }
    }

    private static func fetchUnsent(_ db: Database) throws -> [OutboxRow] {
        try fetchRows(db, sql: "SELECT * FROM outbox WHERE sentAt IS NULL ORDER BY seq")
    }

    private static func fetchRows(_ db: Database, sql: String) throws -> [OutboxRow] {
        try Row.fetchAll(db, sql: sql).compactMap { row in
            guard let kind = OutboxItem.Kind(rawValue: row["kind"]),
                let walker = WalkerID(validating: row["walker"])
            else { return nil }
            let item = OutboxItem(
                key: row["key"], kind: kind, walker: walker, topic: row["topic"],
                payload: row["payload"], retain: row["retain"], createdAt: row["createdAt"])
            return OutboxRow(seq: row["seq"], item: item)
        }
    }
}
