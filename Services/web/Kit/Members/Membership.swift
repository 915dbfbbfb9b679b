import Foundation
import SafeWalkCore

/// One account as the member directory sees it: no e-mail, no password hash.
public struct Membership: Hashable, Sendable {
    public var user: WalkerID
    public var state: Account.State
    public var createdAt: Date

    public init(user: WalkerID, state: Account.State, createdAt: Date) {
        self.user = user
        self.state = state
        self.createdAt = createdAt
    }

    /// What `_members/{w}` should hold for this account.
    public enum Intent: Hashable, Sendable {
        case publish(Member)
        case clear(WalkerID)
    }

    /// Only an active account can be followed. One being erased is cleared (nobody may follow a
    /// person who asked to be forgotten), and so is a pending one: its sign-up has not finished,
    /// or finished without a broker login.
    public var intent: Intent {
        state == .active ? .publish(Self.member(user, createdAt: createdAt)) : .clear(user)
    }

    /// The record of an account created at `createdAt`: whole seconds, so that every publication
    /// of one account is the same bytes.
    public static func member(_ user: WalkerID, createdAt: Date) -> Member {
        Member(user: user, since: createdAt.timeIntervalSince1970.rounded(.down))
    }

    /// What a pass must redo: the intents it carried out that the accounts contradict now (an
    /// erasure begun or cancelled, an account gone, while the pass ran), as they are now. A pass
    /// writes what it read a moment ago, and may thereby overwrite the newer record a sign-up or
    /// an erasure published meanwhile.
    public static func corrections(done: [WalkerID: Intent], now accounts: [Membership]) -> [Intent] {
        let current = Dictionary(accounts.map { ($0.user, $0.intent) }, uniquingKeysWith: { $1 })
        return done.sorted { $0.key.rawValue < $1.key.rawValue }.compactMap { user, intent in
            let wanted = current[user] ?? .clear(user)
            return wanted == intent ? nil : wanted
        }
    }
}
