import Foundation
import GRDB
import SafeWalkCore

/// A signed-in browser or app. The cookie's token is stored only as its SHA-256, so a copy of
/// the database does not sign anyone in.
public struct Session: Hashable, Sendable {
    public var username: WalkerID
    public var csrfToken: String
    public var expiresAt: Date
    public var role: Account.Role = .walker

    public var usernameKey: String { UsernameRule.key(username) }
}

extension WebDatabase {
    /// Stores a session and keeps at most `keepAtMost` per account (the oldest go), dropping every
    /// expired session of anyone on the way: the table stays bounded without a sweeper. Returns
    /// the broker logins of the sessions dropped, to be revoked.
    @discardableResult
    public func insertSession(
        tokenHash: String, key: String, csrfToken: String, now: Date, expiresAt: Date, keepAtMost: Int,
        login: String? = nil
    ) async throws -> [SessionLogin] {
        try await write { db in
            var dropped = try Self.logins(
                db, where: "sessions.expires_at <= ?", arguments: [now.timeIntervalSince1970])
            try db.execute(sql: "DELETE FROM sessions WHERE expires_at <= ?", arguments: [now.timeIntervalSince1970])
            try db.execute(
                sql: """
                    INSERT INTO sessions (token_hash, username_key, csrf_token, created_at, expires_at, login)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    tokenHash, key, csrfToken, now.timeIntervalSince1970, expiresAt.timeIntervalSince1970, login,
                ])
            let oldest = """
                sessions.username_key = ? AND sessions.token_hash NOT IN (
                    SELECT token_hash FROM sessions WHERE username_key = ?
                    ORDER BY created_at DESC, rowid DESC LIMIT ?)
                """
            dropped += try Self.logins(db, where: oldest, arguments: [key, key, keepAtMost])
            try db.execute(
                sql: "DELETE FROM sessions WHERE " + oldest.replacingOccurrences(of: "sessions.", with: ""),
                arguments: [key, key, keepAtMost])
            return dropped
        }
    }

    /// The unexpired session of an active account with this token hash.
    public func session(tokenHash: String, now: Date) async throws -> Session? {
        try await read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT accounts.username, accounts.role, sessions.csrf_token, sessions.expires_at
                    FROM sessions JOIN accounts ON accounts.username_key = sessions.username_key
                    WHERE sessions.token_hash = ? AND sessions.expires_at > ? AND accounts.state = 'active'
                    """,
                arguments: [tokenHash, now.timeIntervalSince1970])
            guard let row, let username = WalkerID(validating: row["username"]) else { return nil }
            return Session(
                username: username, csrfToken: row["csrf_token"],
                expiresAt: Date(timeIntervalSince1970: row["expires_at"]),
                role: Account.Role(rawValue: row["role"]) ?? .walker)
        }
    }

    /// Ends one session; returns its broker login, to be revoked.
    @discardableResult
    public func deleteSession(tokenHash: String) async throws -> SessionLogin? {
        try await write { db in
            let login = try Self.logins(db, where: "sessions.token_hash = ?", arguments: [tokenHash]).first
            try db.execute(sql: "DELETE FROM sessions WHERE token_hash = ?", arguments: [tokenHash])
            return login
        }
    }

    /// Signs the account out everywhere but `tokenHash` (after a password change); returns the
    /// broker logins of the sessions ended.
    @discardableResult
    public func deleteSessions(key: String, except tokenHash: String?) async throws -> [SessionLogin] {
        try await write { db in
            let logins = try Self.logins(
                db, where: "sessions.username_key = ? AND sessions.token_hash IS NOT ?", arguments: [key, tokenHash])
            try db.execute(
                sql: "DELETE FROM sessions WHERE username_key = ? AND token_hash IS NOT ?",
                arguments: [key, tokenHash])
            return logins
        }
    }

    /// Deletes every session expired at `now`; returns their broker logins (``SessionSweeper``).
    public func deleteExpiredSessions(now: Date) async throws -> [SessionLogin] {
        try await write { db in
            let logins = try Self.logins(
                db, where: "sessions.expires_at <= ?", arguments: [now.timeIntervalSince1970])
            try db.execute(sql: "DELETE FROM sessions WHERE expires_at <= ?", arguments: [now.timeIntervalSince1970])
            return logins
        }
    }

    /// Moves a session's expiry (sliding sessions: ``SessionSlide``).
    public func slideSession(tokenHash: String, expiresAt: Date) async throws {
        try await write { db in
            try db.execute(
                sql: "UPDATE sessions SET expires_at = ? WHERE token_hash = ?",
                arguments: [expiresAt.timeIntervalSince1970, tokenHash])
        }
    }

    public func sessionCount(key: String) async throws -> Int {
        try await read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sessions WHERE username_key = ?", arguments: [key]) ?? 0
        }
    }

    /// The broker logins of the sessions `condition` selects (those that have one).
    private static func logins(_ db: Database, where condition: String, arguments: StatementArguments) throws
        -> [SessionLogin]
    {
        try Row.fetchAll(
            db,
            sql: """
                SELECT accounts.username, sessions.login FROM sessions
                JOIN accounts ON accounts.username_key = sessions.username_key
                WHERE sessions.login IS NOT NULL AND \(condition)
                """,
            arguments: arguments
        ).compactMap { row in
            guard let user = WalkerID(validating: row["username"]), let session: String = row["login"] else {
                return nil
            }
            return SessionLogin(user: user, session: session)
        }
    }
}
