import Crypto
import Foundation
import GRDB

/// Web Push's part of `web.sqlite`: the VAPID key (in `keys`, as `vapid-p256`) and each account's
/// subscriptions, which go with the account (`ON DELETE CASCADE`).
extension WebDatabase {
    static let vapidKeyName = "vapid-p256"

    static func registerPushMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v3-push") { db in
            try db.execute(
                sql: """
                    CREATE TABLE push_subscriptions (
                        endpoint TEXT NOT NULL PRIMARY KEY,
                        username_key TEXT NOT NULL REFERENCES accounts(username_key) ON DELETE CASCADE,
                        p256dh BLOB NOT NULL,
                        auth BLOB NOT NULL,
                        created_at REAL NOT NULL
                    );
                    CREATE INDEX push_subscriptions_by_user ON push_subscriptions(username_key, created_at);
                    """)
        }
    }

    /// web's VAPID signing key, made the first time it is asked for and kept: a new key would
    /// orphan every subscription (push services bind them to the key they were made with).
    public func vapidKey() async throws -> P256.Signing.PrivateKey {
        let raw = try await write { db in
            if let stored = try Data.fetchOne(
                db, sql: "SELECT secret FROM keys WHERE name = ?", arguments: [Self.vapidKeyName])
            {
                return stored
            }
            let fresh = P256.Signing.PrivateKey().rawRepresentation
            try db.execute(sql: "INSERT INTO keys (name, secret) VALUES (?, ?)", arguments: [Self.vapidKeyName, fresh])
            return fresh
        }
        return try P256.Signing.PrivateKey(rawRepresentation: raw)
    }

    /// Keeps `subscription` for the account: an endpoint already known moves to this account (the
    /// browser is now signed in as someone else) with its new keys; beyond `limit` the oldest go.
    public func savePushSubscription(
        _ subscription: PushSubscription, usernameKey: String, limit: Int, at now: Date
    ) async throws {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO push_subscriptions (endpoint, username_key, p256dh, auth, created_at)
                    VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(endpoint) DO UPDATE SET username_key = excluded.username_key,
                        p256dh = excluded.p256dh, auth = excluded.auth, created_at = excluded.created_at
                    """,
                arguments: [
                    subscription.endpoint.absoluteString, usernameKey, subscription.p256dh, subscription.auth,
                    now.timeIntervalSince1970,
                ])
            try db.execute(
                sql: """
                    DELETE FROM push_subscriptions WHERE username_key = ? AND endpoint NOT IN (
                        SELECT endpoint FROM push_subscriptions WHERE username_key = ?
                        ORDER BY created_at DESC, rowid DESC LIMIT ?)
                    """,
                arguments: [usernameKey, usernameKey, limit])
        }
    }

    /// Removes one of the account's subscriptions; false if it had none with that endpoint.
    @discardableResult
    public func deletePushSubscription(endpoint: String, usernameKey: String) async throws -> Bool {
        try await write { db in
            try db.execute(
                sql: "DELETE FROM push_subscriptions WHERE endpoint = ? AND username_key = ?",
                arguments: [endpoint, usernameKey])
            return db.changesCount > 0
        }
    }

    /// Forgets an endpoint the push service said is gone (404 or 410), whoever it belongs to.
    public func forgetPushEndpoint(_ endpoint: String) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM push_subscriptions WHERE endpoint = ?", arguments: [endpoint])
        }
    }

    /// The account's subscriptions, newest first.
    public func pushSubscriptions(usernameKey: String) async throws -> [PushSubscription] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT endpoint, p256dh, auth FROM push_subscriptions WHERE username_key = ?
                    ORDER BY created_at DESC, rowid DESC
                    """,
                arguments: [usernameKey]
            ).compactMap { row in
                guard let url = URL(string: row["endpoint"] as String) else { return nil }
                return PushSubscription(trusted: url, p256dh: row["p256dh"], auth: row["auth"])
            }
        }
    }
}
