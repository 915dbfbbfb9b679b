import Foundation
import GRDB
import SafeWalkCore

/// A deletion in progress, kept until every service has reported its part erased, so a restart
/// resumes it (docs/services/web.md, "Deleting an account").
public struct Erasure: Hashable, Sendable {
    public enum Phase: String, Hashable, Sendable {
        /// The walker's logins are being disabled and the watchdog asked; it may still refuse
        /// (an open incident), which cancels the erasure.
        case started
        /// The watchdog erased; the other services are asked until each has reported.
        case erasing
    }

    /// Also the `id` of every ``EraseRequest`` of this erasure.
    public var id: String
    public var user: WalkerID
    public var phase: Phase
    /// The services that have not yet reported their part erased.
    public var remaining: [ServiceName]
    public var startedAt: Date

    public var usernameKey: String { UsernameRule.key(user) }
}

extension WebDatabase {
    /// Marks the account `erasing` and records the job, in one transaction. Nil when the account
    /// does not exist or is not active (an erasure already runs, or the sign-up never finished).
    public func startErasure(id: String, key: String, remaining: [ServiceName], at now: Date) async throws -> Erasure? {
        try await write { db in
            guard
                let row = try Row.fetchOne(db, sql: "SELECT * FROM accounts WHERE username_key = ?", arguments: [key]),
                let account = Self.account(from: row), account.state == .active
            else { return nil }
            try db.execute(sql: "UPDATE accounts SET state = 'erasing' WHERE username_key = ?", arguments: [key])
            let erasure = Erasure(
                id: id, user: account.username, phase: .started, remaining: remaining, startedAt: now)
            try db.execute(
                sql: """
                    INSERT INTO erasures (id, username, username_key, phase, remaining, started_at)
                    VALUES (?, ?, ?, 'started', ?, ?)
                    """,
                arguments: [id, account.username.rawValue, key, Self.encode(remaining), now.timeIntervalSince1970])
            return erasure
        }
    }

    /// Records progress: the phase and who is left.
    public func updateErasure(_ erasure: Erasure) async throws {
        try await write { db in
            try db.execute(
                sql: "UPDATE erasures SET phase = ?, remaining = ?, attempts = attempts + 1 WHERE id = ?",
                arguments: [erasure.phase.rawValue, Self.encode(erasure.remaining), erasure.id])
        }
    }

    /// Every service reported: the account, its sessions and the job go, in one transaction.
    public func finishErasure(_ erasure: Erasure) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM accounts WHERE username_key = ?", arguments: [erasure.usernameKey])
            // The desk's audit, log and figures about the walker go with the account.
            try Self.forgetDesk(db, walkerKey: erasure.usernameKey)
            try db.execute(sql: "DELETE FROM erasures WHERE id = ?", arguments: [erasure.id])
        }
    }

    /// The watchdog refused: the job goes and the account is active again.
    public func cancelErasure(_ erasure: Erasure) async throws {
        try await write { db in
            try db.execute(
                sql: "UPDATE accounts SET state = 'active' WHERE username_key = ?", arguments: [erasure.usernameKey])
            try db.execute(sql: "DELETE FROM erasures WHERE id = ?", arguments: [erasure.id])
        }
    }

    /// Every unfinished erasure, oldest first.
    public func erasures() async throws -> [Erasure] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM erasures ORDER BY started_at").compactMap { row in
                guard let user = WalkerID(validating: row["username"]),
                    let phase = Erasure.Phase(rawValue: row["phase"])
                else { return nil }
                return Erasure(
                    id: row["id"], user: user, phase: phase, remaining: Self.decode(row["remaining"]),
                    startedAt: Date(timeIntervalSince1970: row["started_at"]))
            }
        }
    }

    private static func encode(_ services: [ServiceName]) -> String {
        services.map(\.rawValue).joined(separator: " ")
    }

    private static func decode(_ text: String) -> [ServiceName] {
        text.split(separator: " ").compactMap { ServiceName(validating: String($0)) }
    }
}
