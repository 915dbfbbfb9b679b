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

    public var username: WalkerID
    public var email: String
    public var passwordHash: PasswordHash
    public var state: State
    public var createdAt: Date

    public init(username: WalkerID, email: String, passwordHash: PasswordHash, state: State, createdAt: Date) {
        self.username = username
        self.email = email
        self.passwordHash = passwordHash
        self.state = state
        self.createdAt = createdAt
    }

    public var usernameKey: String { UsernameRule.key(username) }
}
