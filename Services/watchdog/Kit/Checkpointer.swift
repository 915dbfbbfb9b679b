import GRDB
import Logging

/// Keeps SQLite's WAL checkpoints (the only fsyncs under `synchronous = NORMAL`) off the event
/// loop's commits. By default the connection that commits past 1,000 WAL pages runs the
/// checkpoint inline, so every few thousand escalations one commit stalled for a slow fsync:
/// measured on the shared VM, p99 deadline-to-decision went from ~8 ms (tmpfs) to over 1 s (disk).
/// Here the writer's auto-checkpoint is off and a second connection runs PASSIVE checkpoints
/// (which never block the writer) on a timer.
struct Checkpointer: Sendable {
    let connection: DatabaseQueue
    let interval: Double

    /// Opens the checkpointing connection and only then turns the writer's auto-checkpoint off,
    /// so a failure here leaves SQLite's default behaviour in place.
    init(store: WatchStore, interval: Double = 1) async throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        // Opened synchronously: once, at start-up, before the event loop serves anything.
        connection = try DatabaseQueue(path: store.database.path, configuration: configuration)
        self.interval = interval
        try await store.database.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
        }
    }

    func run(clock: any WatchClock, logger: Logger) async {
        while !Task.isCancelled {
            do {
                try await clock.sleep(until: clock.now() + interval)
                try await connection.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)")
                }
            } catch is CancellationError {
                return
            } catch {
                logger.warning("WAL checkpoint failed", metadata: ["error": "\(error)"])
            }
        }
    }
}
