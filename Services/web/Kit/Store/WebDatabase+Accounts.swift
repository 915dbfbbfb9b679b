import Foundation
import GRDB
import SafeWalkCore

extension WebDatabase {
    public enum InsertOutcome: Hashable, Sendable {
        case inserted
        case usernameTaken
        case emailTaken
    }

    /// Stores a new account as `pending`, unless its username or e-mail is taken regardless of
    /// case. The check and the insert are one transaction, so two sign-ups racing for one name
    /// cannot both win.
    public func insertPending(_ form: SignUpForm, hash: PasswordHash, at now: Date) async throws -> InsertOutcome {
        try await write { db in
            if let taken = try Self.taken(db, usernameKey: form.usernameKey, emailKey: form.emailKey) { return taken }
            try db.execute(
                sql: """
                    INSERT INTO accounts (username, username_key, email, email_key, password_hash, state, created_at)
                    VALUES (?, ?, ?, ?, ?, 'pending', ?)
                    """,
                arguments: [
                    form.username.rawValue, form.usernameKey, form.email, form.emailKey, hash.description,
                    now.timeIntervalSince1970,
                ])
            return .inserted
        }
    }

    /// Which of the two is taken already (the username first), or nil when neither is.
    public func taken(usernameKey: String, emailKey: String) async throws -> InsertOutcome? {
        try await read { db in try Self.taken(db, usernameKey: usernameKey, emailKey: emailKey) }
    }

    private static func taken(_ db: Database, usernameKey: String, emailKey: String) throws -> InsertOutcome? {
        if try Bool.fetchOne(db, sql: "SELECT 1 FROM accounts WHERE username_key = ?", arguments: [usernameKey])
            != nil
        {
            return .usernameTaken
        }
        if try Bool.fetchOne(db, sql: "SELECT 1 FROM accounts WHERE email_key = ?", arguments: [emailKey]) != nil {
            return .emailTaken
        }
        return nil
    }

    /// The account whose username is `key` regardless of case (see ``UsernameRule/key(_:)``).
    public func account(key: String) async throws -> Account? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM accounts WHERE username_key = ?", arguments: [key])
                .flatMap(Self.account(from:))
        }
    }

    public func setState(_ state: Account.State, key: String) async throws {
        try await write { db in
            try db.execute(
                sql: "UPDATE accounts SET state = ? WHERE username_key = ?", arguments: [state.rawValue, key])
        }
    }

    public func setPasswordHash(_ hash: PasswordHash, key: String) async throws {
        try await write { db in
            try db.execute(
                sql: "UPDATE accounts SET password_hash = ? WHERE username_key = ?",
                arguments: [hash.description, key])
        }
    }

    /// Removes the account and, by cascade, its sessions.
    public func deleteAccount(key: String) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM accounts WHERE username_key = ?", arguments: [key])
        }
    }

    /// Removes every `pending` account (a sign-up a stop cut short) and says whose.
    public func forgetPending() async throws -> [String] {
        try await write { db in
            let names = try String.fetchAll(db, sql: "SELECT username FROM accounts WHERE state = 'pending'")
            try db.execute(sql: "DELETE FROM accounts WHERE state = 'pending'")
            return names
        }
    }

    public func accountCount() async throws -> Int {
        try await read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM accounts") ?? 0 }
    }

    static func account(from row: Row) -> Account? {
        guard let username = WalkerID(validating: row["username"]),
            let hash = PasswordHash(row["password_hash"]),
            let state = Account.State(rawValue: row["state"])
        else { return nil }
        return Account(
            username: username, email: row["email"], passwordHash: hash, state: state,
            createdAt: Date(timeIntervalSince1970: row["created_at"]),
            role: (row["role"] as String?).flatMap(Account.Role.init(rawValue:)) ?? .walker)
    }
}
