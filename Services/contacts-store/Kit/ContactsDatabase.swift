import Foundation
import GRDB
import Logging
import SafeWalkCore
import SafeWalkStorage

/// contacts-store's SQLite file. Only ``ContactsDirectory`` writes it.
///
/// Accesses are async, so they wait on GRDB's queue rather than on a cooperative thread. A write
/// runs to the end even if the calling task is cancelled, as the synchronous write did: GRDB's
/// async write would stop with `CancellationError`, and a command received during shutdown would
/// be answered "could not be saved" instead of being saved.
public final class ContactsDatabase: Sendable {
    public static let fileName = "contacts-store.sqlite"
    let pool: DatabasePool

    public init(pool: DatabasePool) {
        self.pool = pool
    }

    /// Synchronous: runs once at start-up, before anything is served.
    public static func open(directory: URL, logger: Logger) throws -> ContactsDatabase {
        ContactsDatabase(
            pool: try SQLiteStore.open(
                directory: directory, fileName: fileName,
                migrator: migrator, logger: logger))
    }

    public static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "contact") { t in
                t.autoIncrementedPrimaryKey("seq")  // keeps the walker's order of adding
                t.column("id", .text).notNull().unique()
                t.column("walker", .text).notNull().indexed()
                t.column("name", .text).notNull()
                t.column("rawPhone", .text).notNull()
            }
        }
        migrator.registerMigration("v2-tier") { db in
            // Contacts stored before tiers existed are told at once, as they always were.
            try db.execute(sql: "ALTER TABLE contact ADD COLUMN tier INTEGER NOT NULL DEFAULT 1")
        }
        migrator.registerMigration("v3-circle") { db in try CircleSchema.create(db) }
        return migrator
    }

    /// Every walker's contacts, in the order they were added.
    public func loadAll() async throws -> [WalkerID: [ContactEntry]] {
        try await pool.read { db in
            var result: [WalkerID: [ContactEntry]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, walker, name, rawPhone, tier FROM contact ORDER BY seq") {
                guard let walker = WalkerID(validating: row["walker"]) else { continue }
                result[walker, default: []].append(
                    ContactEntry(id: row["id"], name: row["name"], rawPhone: row["rawPhone"], tier: row["tier"]))
            }
            return result
        }
    }

    public func insert(_ entry: ContactEntry, for walker: WalkerID) async throws {
        try await write { db in
            try db.execute(
                sql: "INSERT INTO contact (id, walker, name, rawPhone, tier) VALUES (?, ?, ?, ?, ?)",
                arguments: [entry.id, walker.rawValue, entry.name, entry.rawPhone, entry.tier])
        }
    }

    public func delete(id: String, for walker: WalkerID) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM contact WHERE id = ? AND walker = ?", arguments: [id, walker.rawValue])
        }
    }

    /// Deletes every contact of `walker`; none is fine (an erasure asked again).
    public func deleteAll(for walker: WalkerID) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM contact WHERE walker = ?", arguments: [walker.rawValue])
        }
    }

    /// A transaction in its own task, which does not inherit the caller's cancellation.
    private func write(_ updates: @escaping @Sendable (Database) throws -> Void) async throws {
        try await Task { [pool] in try await pool.write(updates) }.value
    }
}
