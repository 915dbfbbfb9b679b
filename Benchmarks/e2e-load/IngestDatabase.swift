import Foundation
import GRDB

/// Reads location-ingest's own SQLite file (another process's; WAL allows a concurrent reader):
/// how many fixes it has stored, in total and per walker.
enum IngestDatabase {
    static func open(_ directory: URL) throws -> DatabaseQueue {
        try DatabaseQueue.readOnly(directory.appendingPathComponent("location-ingest.sqlite"))
    }

    /// Stored fixes are in `fix` and, until location-ingest compacts them (when it is quiet, or
    /// when the log is full), in `fix_log`: both are on disk. Counting `fix` alone reported
    /// "stored 0/s" through every busy window, and would report fixes still in the log at the
    /// stop as lost (likely what a `faults --quick` run on an overloaded machine called 1,638
    /// lost fixes). The union drops exact replays, as compaction's INSERT OR IGNORE on the key does.
    static let stored = """
        SELECT walker, tst, lat, lon FROM fix UNION SELECT walker, tst, lat, lon FROM fix_log
        """

    static func count(_ directory: URL) -> Int {
        (try? open(directory).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM (\(stored))") }) ?? -1
    }

    /// Fixes stored by every ingest of a partitioned run (each walker's in one file); -1 if one
    /// file could not be read.
    static func count(_ directories: [URL]) -> Int {
        let counts = directories.map(count)
        return counts.contains(-1) ? -1 : counts.reduce(0, +)
    }

    /// Every ingest's per-walker counts, summed (a walker is in one partition's file).
    static func perWalker(_ directories: [URL]) -> [String: Int] {
        directories.map(perWalker).reduce(into: [:]) { all, one in all.merge(one, uniquingKeysWith: +) }
    }

    static func perWalker(_ directory: URL) -> [String: Int] {
        let rows =
            (try? open(directory).read {
                try Row.fetchAll($0, sql: "SELECT walker, COUNT(*) AS n FROM (\(stored)) GROUP BY walker")
            }) ?? []
        var result: [String: Int] = [:]
        for row in rows { result[row["walker"]] = row["n"] }
        return result
    }
}

extension DatabaseQueue {
    /// A service's own SQLite file, read only from the harness (another process; WAL allows a
    /// concurrent reader), waiting up to 5 s for its writer.
    static func readOnly(_ file: URL) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        return try DatabaseQueue(path: file.path, configuration: configuration)
    }
}
