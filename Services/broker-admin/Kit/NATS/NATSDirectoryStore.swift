import Foundation
import GRDB
import Logging
import SafeWalkStorage

/// ``NATSDirectory`` in `broker-admin.sqlite`: one row per login and per role, the roles and
/// ACLs as JSON. Read whole at start-up; after each batch only the rows it changed are written,
/// in one transaction, before the users file is (so a crash between the two is mended by the
/// file written from this store at the next start).
public struct NATSDirectoryStore: Sendable {
    let pool: DatabasePool

    public init(pool: DatabasePool) { self.pool = pool }

    public static func open(directory: URL, logger: Logger) throws -> NATSDirectoryStore {
        NATSDirectoryStore(
            pool: try SQLiteStore.open(
                directory: directory, fileName: "broker-admin.sqlite", migrator: migrator, logger: logger))
    }

    public static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-nats-directory") { db in
            try db.create(table: "natsLogin") { table in
                table.primaryKey("username", .text)
                table.column("passwordHash", .text).notNull()
                table.column("disabled", .boolean).notNull()
                table.column("roles", .text).notNull()
            }
            try db.create(table: "natsRole") { table in
                table.primaryKey("name", .text)
                table.column("acls", .text).notNull()
            }
        }
        return migrator
    }

    public func load() throws -> NATSDirectory {
        try pool.read { db in
            var directory = NATSDirectory()
            for row in try Row.fetchAll(db, sql: "SELECT username, passwordHash, disabled, roles FROM natsLogin") {
                directory.logins[row["username"]] = NATSDirectory.Login(
                    passwordHash: row["passwordHash"], disabled: row["disabled"],
                    roles: try Self.decode([String].self, row["roles"]))
            }
            for row in try Row.fetchAll(db, sql: "SELECT name, acls FROM natsRole") {
                directory.roles[row["name"]] = try Self.decode([NATSDirectory.RoleACL].self, row["acls"])
            }
            return directory
        }
    }

    /// Writes the rows `change` names as they are in `directory` (deleted where it has none).
    public func save(_ change: NATSDirectory.Change, of directory: NATSDirectory) throws {
        guard !change.isEmpty else { return }
        try pool.write { db in
            for username in change.logins {
                if let login = directory.logins[username] {
                    try db.execute(
                        sql: """
                            INSERT INTO natsLogin (username, passwordHash, disabled, roles) VALUES (?, ?, ?, ?)
                            ON CONFLICT(username) DO UPDATE SET passwordHash = excluded.passwordHash,
                                disabled = excluded.disabled, roles = excluded.roles
                            """,
                        arguments: [username, login.passwordHash, login.disabled, try Self.encode(login.roles)])
                } else {
                    try db.execute(sql: "DELETE FROM natsLogin WHERE username = ?", arguments: [username])
                }
            }
            for name in change.roles {
                if let acls = directory.roles[name] {
                    try db.execute(
                        sql: """
                            INSERT INTO natsRole (name, acls) VALUES (?, ?)
                            ON CONFLICT(name) DO UPDATE SET acls = excluded.acls
                            """,
                        arguments: [name, try Self.encode(acls)])
                } else {
                    try db.execute(sql: "DELETE FROM natsRole WHERE name = ?", arguments: [name])
                }
            }
        }
    }

    private static func encode(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }
}
