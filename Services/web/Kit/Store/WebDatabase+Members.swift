import Foundation
import GRDB
import SafeWalkCore

extension WebDatabase {
    /// Every account's name, state and creation time, for the member directory. A row that does
    /// not read as an account (a name that is no walker id) is skipped, as everywhere else. The
    /// desk's operators are no members: nobody can follow them or make them an SOS contact.
    public func memberships() async throws -> [Membership] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT username, state, created_at FROM accounts WHERE role = 'walker' ORDER BY username_key"
            )
            .compactMap { row in
                guard let user = WalkerID(validating: row["username"]),
                    let state = Account.State(rawValue: row["state"])
                else { return nil }
                return Membership(
                    user: user, state: state, createdAt: Date(timeIntervalSince1970: row["created_at"]))
            }
        }
    }
}
