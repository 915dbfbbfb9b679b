import Foundation
import GRDB
import Logging
import SafeWalkStorage

/// web's SQLite file (`web.sqlite`): accounts, sessions, the durable erasure jobs, the live pages
/// it has seen and its own keys. Only the
/// web service opens it.
///
/// Every access is async, so it waits on GRDB's queue rather than on a cooperative thread. A write
/// runs to the end even if the request that asked for it is cancelled (a client that hangs up
/// must not leave half an account).
public final class WebDatabase: Sendable {
    public static let fileName = "web.sqlite"
    let pool: DatabasePool

    public init(pool: DatabasePool) {
        self.pool = pool
    }

    /// Synchronous: runs once at start-up, before anything is served.
    public static func open(directory: URL, logger: Logger) throws -> WebDatabase {
        WebDatabase(
            pool: try SQLiteStore.open(directory: directory, fileName: fileName, migrator: migrator, logger: logger))
    }

    public static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE accounts (
                        username TEXT NOT NULL,
                        username_key TEXT NOT NULL PRIMARY KEY,
                        email TEXT NOT NULL,
                        email_key TEXT NOT NULL UNIQUE,
                        password_hash TEXT NOT NULL,
                        state TEXT NOT NULL CHECK (state IN ('pending', 'active', 'erasing')),
                        created_at REAL NOT NULL
                    );
                    CREATE TABLE sessions (
                        token_hash TEXT NOT NULL PRIMARY KEY,
                        username_key TEXT NOT NULL REFERENCES accounts(username_key) ON DELETE CASCADE,
                        csrf_token TEXT NOT NULL,
                        created_at REAL NOT NULL,
                        expires_at REAL NOT NULL
                    );
                    CREATE INDEX sessions_by_user ON sessions(username_key);
                    CREATE INDEX sessions_by_expiry ON sessions(expires_at);
                    CREATE TABLE erasures (
                        id TEXT NOT NULL PRIMARY KEY,
                        username TEXT NOT NULL,
                        username_key TEXT NOT NULL UNIQUE,
                        phase TEXT NOT NULL CHECK (phase IN ('started', 'erasing')),
                        remaining TEXT NOT NULL,
                        started_at REAL NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0
                    );
                    """)
        }
        migrator.registerMigration("v2-pages") { db in
            // Pages web has seen on `_ladder/{w}`, by their token's digest (never the token), so
            // a page that was revoked or closed stays dead across restarts; and web's own keys.
            try db.execute(
                sql: """
                    CREATE TABLE pages (
                        digest TEXT NOT NULL PRIMARY KEY,
                        walker TEXT NOT NULL,
                        incident TEXT NOT NULL,
                        name TEXT NOT NULL,
                        closed_at REAL,
                        revoked INTEGER NOT NULL DEFAULT 0,
                        seen_at REAL NOT NULL
                    );
                    CREATE INDEX pages_by_walker ON pages(walker);
                    CREATE TABLE keys (
                        name TEXT NOT NULL PRIMARY KEY,
                        secret BLOB NOT NULL
                    );
                    """)
        }
        // Web Push's subscriptions (Kit/Push).
        registerPushMigrations(&migrator)
        migrator.registerMigration("v4-session-logins") { db in
            // The id of each session's broker login (`{w}.app-{login}`, Kit/App/SessionLogin), so it
            // can be revoked when the session ends; never its password, which needs the cookie.
            try db.execute(sql: "ALTER TABLE sessions ADD COLUMN login TEXT")
        }
        // The monitoring desk: roles, the audit, the desk's log and figures (Kit/Desk).
        registerDeskMigrations(&migrator)
        return migrator
    }

    /// A transaction in its own task, which does not inherit the caller's cancellation.
    func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await Task { [pool] in try await pool.write(updates) }.value
    }

    func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await pool.read(value)
    }
}
