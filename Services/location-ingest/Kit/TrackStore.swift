import Foundation
import GRDB
import Logging
import SafeWalkCore
import SafeWalkStorage
import Synchronization

/// location-ingest's SQLite file: every walker's history and current track.
///
/// History is written in two steps, because a burst from many walkers would otherwise touch one
/// B-tree page per fix: each batch is APPENDED to `fix_log` (rowid order, a few pages per
/// commit), and later the log moves in one sorted pass into `fix`, which is clustered by walker
/// and time (a walker's track is one key range; an exact replay of a stored fix is dropped
/// there). Measured with the ingest benchmark's 200,000 fixes from 1,000 walkers: inserting
/// straight into `fix` cost ~10 µs/fix in commits of ~700, appending ~1.5 µs, and compacting
/// 50,000 at once ~1.7 µs. ``HistoryCompactor`` compacts when ingest is quiet, so a burst pays
/// only the append; under load that never pauses the writer compacts once the log reaches
/// ``logLimit``. Reads look at both tables.
public final class TrackStore: Sendable {
    public static let fileName = "location-ingest.sqlite"
    public static let defaultLogLimit = 500_000
    let pool: DatabasePool
    /// Rows in `fix_log` at which the writer compacts without waiting for a quiet moment.
    public let logLimit: Int
    /// Rows in `fix_log` (counted at open, then kept in step by this store's writes).
    private let logRows: Mutex<Int>

    public init(pool: DatabasePool, logLimit: Int = TrackStore.defaultLogLimit) {
        self.pool = pool
        self.logLimit = logLimit
        // A synchronous read, safe here: a store is made once, at start-up, before serving.
        self.logRows = Mutex((try? pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM fix_log") }) ?? 0)
    }

    /// Opens (creating and migrating) `location-ingest.sqlite` in `directory`.
    public static func open(directory: URL, logger: Logger) throws -> TrackStore {
        TrackStore(
            pool: try SQLiteStore.open(
                directory: directory, fileName: fileName,
                migrator: migrator, logger: logger))
    }

    public static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            // Clustered by walker then time: a walker's track is one range, an exact replay of a
            // stored fix is a no-op (INSERT OR IGNORE), and pruning is a range per walker, so no
            // second index has to be kept up to date.
            try db.execute(
                sql: """
                    CREATE TABLE fix (
                        walker TEXT NOT NULL, tst REAL NOT NULL, lat REAL NOT NULL, lon REAL NOT NULL,
                        acc REAL, alt REAL, vel REAL, batt REAL, receivedAt REAL NOT NULL,
                        PRIMARY KEY (walker, tst, lat, lon)) WITHOUT ROWID;
                    CREATE TABLE track (
                        walker TEXT PRIMARY KEY NOT NULL,
                        lat REAL NOT NULL, lon REAL NOT NULL, tst REAL NOT NULL,
                        acc REAL, alt REAL, vel REAL, batt REAL,
                        anchorLat REAL NOT NULL, anchorLon REAL NOT NULL, anchorAcc REAL,
                        anchorTst REAL NOT NULL, anchorMovedAt REAL NOT NULL);
                    """)
        }
        migrator.registerMigration("v2-fix-log") { db in
            // Append-only, no index: the hot path (see the type's comment).
            try db.execute(
                sql: """
                    CREATE TABLE fix_log (
                        walker TEXT NOT NULL, tst REAL NOT NULL, lat REAL NOT NULL, lon REAL NOT NULL,
                        acc REAL, alt REAL, vel REAL, batt REAL, receivedAt REAL NOT NULL);
                    """)
        }
        migrator.registerMigration("v3-owntracks-will") { db in
            // One row per walker whose OwnTracks app ever left a Last Will (see OwnTracksPresence).
            try db.execute(
                sql: """
                    CREATE TABLE owntracks_will (
                        walker TEXT PRIMARY KEY NOT NULL, connectedAt REAL, offline INTEGER NOT NULL);
                    """)
        }
        migrator.registerMigration("v4-owntracks-device") { db in
            // One row per OwnTracks device ever seen, so that after a restart the commands of an
            // incident still reach every device, in the mode to give back, said once (see
            // OwnTracksModeRule). `commandedMove`: 1 held in move mode, 0 given back, NULL never told.
            try db.execute(
                sql: """
                    CREATE TABLE owntracks_device (
                        walker TEXT NOT NULL, device TEXT NOT NULL, usualMode INTEGER,
                        commandedIncident TEXT, commandedMove INTEGER, restorePending INTEGER NOT NULL,
                        PRIMARY KEY (walker, device)) WITHOUT ROWID;
                    """)
        }
        return migrator
    }

    /// Writes one batch in ONE transaction: a burst of fixes costs one commit, not one each.
    public func save(
        history: [HistoryRow], tracks: [WalkerID: WalkerTrack], wills: [WalkerID: OwnTracksWill] = [:]
    ) async throws {
        guard !history.isEmpty || !tracks.isEmpty || !wills.isEmpty else { return }
        try await pool.write { db in
            let append = try db.cachedStatement(
                sql: """
                    INSERT INTO fix_log (walker, tst, lat, lon, acc, alt, vel, batt, receivedAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            for row in history { try HistoryRowBinder.append(row, with: append, in: db) }
            // Only ever moves a track forward, whatever order concurrent batches commit in.
            let upsert = try db.cachedStatement(
                sql: """
                    INSERT INTO track (walker, lat, lon, tst, acc, alt, vel, batt,
                                       anchorLat, anchorLon, anchorAcc, anchorTst, anchorMovedAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(walker) DO UPDATE SET
                        lat = excluded.lat, lon = excluded.lon, tst = excluded.tst, acc = excluded.acc,
                        alt = excluded.alt, vel = excluded.vel, batt = excluded.batt,
                        anchorLat = excluded.anchorLat, anchorLon = excluded.anchorLon,
                        anchorAcc = excluded.anchorAcc, anchorTst = excluded.anchorTst,
                        anchorMovedAt = excluded.anchorMovedAt
                    WHERE excluded.tst > track.tst
                    """)
            for (walker, track) in tracks {
                let f = track.last
                let a = track.anchor
                try upsert.execute(arguments: [
                    walker.rawValue, f.lat, f.lon, f.tst, f.acc, f.alt, f.vel, f.batt,
                    a.lat, a.lon, a.acc, a.tst, a.movedAt,
                ])
            }
            for (walker, will) in wills {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO owntracks_will (walker, connectedAt, offline) VALUES (?, ?, ?)",
                    arguments: [walker.rawValue, will.connectedAt, will.offline])
            }
        }
        logRows.withLock { $0 += history.count }
    }

    /// Rows appended and not yet compacted.
    public var pendingLogRows: Int { logRows.withLock { $0 } }

    /// Whether `fix_log` has reached ``logLimit``.
    public var logIsFull: Bool { pendingLogRows >= logLimit }

    /// Moves everything in `fix_log` into `fix` in one sorted pass and one transaction (exact
    /// replays dropped); returns how many rows left the log.
    @discardableResult
    public func compact() async throws -> Int {
        let moved = try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO fix (walker, tst, lat, lon, acc, alt, vel, batt, receivedAt)
                    SELECT walker, tst, lat, lon, acc, alt, vel, batt, receivedAt FROM fix_log
                    ORDER BY walker, tst, lat, lon
                    """)
            try db.execute(sql: "DELETE FROM fix_log")
            return db.changesCount
        }
        logRows.withLock { $0 = max(0, $0 - moved) }
        return moved
    }

    /// Every walker's track, as persisted. Rows with an id that is no longer valid are skipped.
    /// Synchronous: read once at start-up, before the service subscribes or serves.
    public func loadTracks() throws -> [WalkerID: WalkerTrack] {
        try pool.read { db in
            var result: [WalkerID: WalkerTrack] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM track") {
                guard let walker = WalkerID(validating: row["walker"]) else { continue }
                let fix = LocationFix(
                    lat: row["lat"], lon: row["lon"], tst: row["tst"], acc: row["acc"],
                    alt: row["alt"], vel: row["vel"], batt: row["batt"])
                let anchor = MovementAnchor(
                    lat: row["anchorLat"], lon: row["anchorLon"], acc: row["anchorAcc"],
                    tst: row["anchorTst"], movedAt: row["anchorMovedAt"])
                result[walker] = WalkerTrack(last: fix, anchor: anchor)
            }
            return result
        }
    }

    /// Every walker's OwnTracks will, as persisted. Synchronous, like ``loadTracks()``.
    public func loadWills() throws -> [WalkerID: OwnTracksWill] {
        try pool.read { db in
            var result: [WalkerID: OwnTracksWill] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM owntracks_will") {
                guard let walker = WalkerID(validating: row["walker"]) else { continue }
                result[walker] = OwnTracksWill(connectedAt: row["connectedAt"], offline: row["offline"])
            }
            return result
        }
    }

    /// Deletes history older than `cutoff` (by `tst`); returns how many rows went (a replay
    /// not yet compacted counts twice). Every
    /// stored fix belongs to a walker with a track, so one key range per tracked walker covers
    /// `fix`; the log is small (at most one compaction's worth) and is scanned.
    @discardableResult
    public func prune(olderThan cutoff: EpochSeconds) async throws -> Int {
        let (removed, fromLog) = try await pool.write { db in
            let delete = try db.cachedStatement(sql: "DELETE FROM fix WHERE walker = ? AND tst < ?")
            var removed = 0
            for walker in try String.fetchAll(db, sql: "SELECT walker FROM track") {
                try delete.execute(arguments: [walker, cutoff])
                removed += db.changesCount
            }
            try db.execute(sql: "DELETE FROM fix_log WHERE tst < ?", arguments: [cutoff])
            return (removed + db.changesCount, db.changesCount)
        }
        logRows.withLock { $0 = max(0, $0 - fromLog) }
        return removed
    }

    /// Deletes everything kept about `walker` (history in both tables, its track, will and OwnTracks
    /// devices) in one
    /// transaction; a walker with nothing stored is fine. `fix` is a key range; `fix_log` has no
    /// index and is scanned, which is acceptable for a rare erasure (it holds at most one
    /// compaction's worth).
    public func erase(_ walker: WalkerID) async throws {
        let fromLog = try await pool.write { db in
            try db.execute(sql: "DELETE FROM fix WHERE walker = ?", arguments: [walker.rawValue])
            try db.execute(sql: "DELETE FROM track WHERE walker = ?", arguments: [walker.rawValue])
            try db.execute(sql: "DELETE FROM owntracks_will WHERE walker = ?", arguments: [walker.rawValue])
            try db.execute(sql: "DELETE FROM owntracks_device WHERE walker = ?", arguments: [walker.rawValue])
            try db.execute(sql: "DELETE FROM fix_log WHERE walker = ?", arguments: [walker.rawValue])
            return db.changesCount
        }
        logRows.withLock { $0 = max(0, $0 - fromLog) }
    }

    /// How many distinct fixes history holds (all walkers, both tables). Synchronous: for tests,
    /// tools and benchmarks; the service never calls it.
    public func historyCount() throws -> Int {
        try pool.read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM (SELECT walker, tst, lat, lon FROM fix
                                          UNION SELECT walker, tst, lat, lon FROM fix_log)
                    """) ?? 0
        }
    }

    /// One walker's history, oldest first, each fix once. Synchronous: for tests and tools; the
    /// service never calls it.
    public func history(of walker: WalkerID) throws -> [LocationFix] {
        try pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT tst, lat, lon, acc, alt, vel, batt FROM fix WHERE walker = ?
                    UNION SELECT tst, lat, lon, acc, alt, vel, batt FROM fix_log WHERE walker = ?
                    ORDER BY tst
                    """, arguments: [walker.rawValue, walker.rawValue]
            )
            .map {
                LocationFix(
                    lat: $0["lat"], lon: $0["lon"], tst: $0["tst"], acc: $0["acc"],
                    alt: $0["alt"], vel: $0["vel"], batt: $0["batt"])
            }
        }
    }
}
