import Foundation
import GRDB
import Logging
import SafeWalkCore
import SafeWalkStorage

/// contacts-store's SQLite file. Only ``ContactsDirectory`` writes it.
public final class ContactsDatabase: Sendable {
    public static let fileName = "contacts-store.sqlite"
    let pool: DatabasePool

    public init(pool: DatabasePool) {
        self.pool = pool
    }

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
        return migrator
    }

    /// Every walker's contacts, in the order they were added.
    public func loadAll() throws -> [WalkerID: [ContactEntry]] {
        try pool.read { db in
            var result: [WalkerID: [ContactEntry]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, walker, name, rawPhone FROM contact ORDER BY seq") {
                guard let walker = WalkerID(validating: row["walker"]) else { continue }
                result[walker, default: []].append(
                    ContactEntry(id: row["id"], name: row["name"], rawPhone: row["rawPhone"]))
            }
            return result
        }
    }

    public func insert(_ entry: ContactEntry, for walker: WalkerID) throws {
        try pool.write { db in
            try db.execute(
                sql: "INSERT INTO contact (id, walker, name, rawPhone) VALUES (?, ?, ?, ?)",
                arguments: [entry.id, walker.rawValue, entry.name, entry.rawPhone])
        }
    }

    public func delete(id: String, for walker: WalkerID) throws {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM contact WHERE id = ? AND walker = ?", arguments: [id, walker.rawValue])
        }
    }
}
