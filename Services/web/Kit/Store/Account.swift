import Foundation
import SafeWalkCore

/// One person's account. Its username is its walker id and its broker login.
public struct Account: Hashable, Sendable {
    public enum State: String, Hashable, Sendable {
        /// Stored, but broker-admin has not yet confirmed the broker login: cannot sign in.
        case pending
        case active
        /// Being deleted: cannot sign in, and the username stays taken until every service erased.
        case erasing
    }

    /// Who the account is for (docs/services/web.md, "The monitoring desk").
    public enum Role: String, Hashable, Sendable, Codable, CaseIterable {
        /// Everyone who signs up: a walker, with a broker login.
        case walker
        /// An operator of the monitoring desk: signs in at `/ops`, has no broker login.
        case `operator`
        /// An operator who may also add operators.
        case admin

        public var isDesk: Bool { self != .walker }
    }

    public var username: WalkerID
    public var email: String
    public var passwordHash: PasswordHash
    public var state: State
    public var createdAt: Date
    public var role: Role = .walker

    public init(
        username: WalkerID, email: String, passwordHash: PasswordHash, state: State, createdAt: Date,
        role: Role = .walker
    ) {
        self.role = role
        self.username = username
        self.email = email
        self.passwordHash = passwordHash
        self.state = state
        self.createdAt = createdAt
    }

    public var usernameKey: String { UsernameRule.key(username) }
}
