import Foundation
import GRDB
import SafeWalkCore

extension WebDatabase {
    /// Stores `records`, merged with what is stored (``PageRecord/keeping(_:)``), and returns them
    /// as stored: a page revoked or closed before stays so, whatever a later message says.
    func savePages(_ records: [PageRecord], at now: EpochSeconds) async throws -> [PageRecord] {
        guard !records.isEmpty else { return [] }
        return try await write { db in
            var stored: [PageRecord] = []
            for record in records {
                let merged = record.keeping(try Self.page(record.digest, in: db))
                stored.append(merged)
                try db.execute(
                    sql: """
                        INSERT INTO pages (digest, walker, incident, name, closed_at, revoked, seen_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT(digest) DO UPDATE SET walker = excluded.walker, incident = excluded.incident,
                            name = excluded.name, closed_at = excluded.closed_at, revoked = excluded.revoked
                        """,
                    arguments: [
                        merged.digest, merged.walker.rawValue, merged.incident, merged.name, merged.closedAt,
                        merged.revoked, now,
                    ])
            }
            return stored
        }
    }

    /// The page with this digest, alive or dead.
    public func page(_ digest: String) async throws -> PageRecord? {
        try await read { db in try Self.page(digest, in: db) }
    }

    /// Pages still alive at `now`: what the live board starts from.
    func livePages(at now: EpochSeconds, grace: Double) async throws -> [PageRecord] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM pages WHERE revoked = 0 AND (closed_at IS NULL OR closed_at >= ?)",
                arguments: [now - grace]
            ).compactMap(Self.record)
        }
    }

    /// A secret of web's own (32 random bytes), made the first time it is asked for and kept.
    func secret(named name: String) async throws -> Data {
        try await write { db in
            if let stored = try Data.fetchOne(db, sql: "SELECT secret FROM keys WHERE name = ?", arguments: [name]) {
                return stored
            }
            var generator = SystemRandomNumberGenerator()
            let fresh = Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
            try db.execute(sql: "INSERT INTO keys (name, secret) VALUES (?, ?)", arguments: [name, fresh])
            return fresh
        }
    }

    private static func page(_ digest: String, in db: Database) throws -> PageRecord? {
        try Row.fetchOne(db, sql: "SELECT * FROM pages WHERE digest = ?", arguments: [digest]).flatMap(record)
    }

    private static func record(_ row: Row) -> PageRecord? {
        guard let walker = WalkerID(validating: row["walker"] as String) else { return nil }
        return PageRecord(
            digest: row["digest"], walker: walker, incident: row["incident"], name: row["name"],
            closedAt: row["closed_at"], revoked: row["revoked"])
    }
}
