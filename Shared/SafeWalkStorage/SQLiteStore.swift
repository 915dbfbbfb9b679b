import Foundation
import GRDB
import Logging

/// Opens a service's own SQLite file: WAL mode (readers never block the writer), migrations run
/// at start-up, `synchronous = NORMAL` (durable at each WAL checkpoint, crash-safe, far fewer
/// fsyncs than FULL). One file per service; no other service opens it.
public enum SQLiteStore {
    /// - Parameters:
    ///   - directory: `SAFEWALK_DATA_DIR`; created if missing.
    ///   - fileName: e.g. `watchdog.sqlite`.
    ///   - migrator: the service's schema, applied before anything else touches the file.
    public static func open(
        directory: URL, fileName: String, migrator: DatabaseMigrator,
        logger: Logger
    ) throws -> DatabasePool {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(fileName).path
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        let pool = try DatabasePool(path: path, configuration: configuration)
        try migrator.migrate(pool)
        logger.info("database ready", metadata: ["path": "\(path)"])
        return pool
    }

    /// An in-memory-like database in a temporary file, for tests that still want real SQLite.
    public static func temporary(migrator: DatabaseMigrator) throws -> (DatabasePool, URL) {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("safewalk-db-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let pool = try DatabasePool(path: directory.appendingPathComponent("test.sqlite").path)
        try migrator.migrate(pool)
        return (pool, directory)
    }
}
