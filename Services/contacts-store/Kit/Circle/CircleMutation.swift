import SafeWalkCore

/// One change to the circle, as the rules decide it. The same list is written to SQLite in one
/// transaction and then applied to the in-memory ``CircleGraph``, so memory never holds what the
/// file does not.
enum CircleMutation: Hashable, Sendable {
    case addMember(WalkerID, since: EpochSeconds)
    case removeMember(WalkerID)
    case follow(follower: WalkerID, followee: WalkerID, since: EpochSeconds)
    case unfollow(follower: WalkerID, followee: WalkerID)
    case setSOS(follower: WalkerID, followee: WalkerID, Bool)
    case request(from: WalkerID, to: WalkerID, at: EpochSeconds)
    case dropRequest(from: WalkerID, to: WalkerID)
    case askCheckIn(asker: WalkerID, asked: WalkerID, at: EpochSeconds)
    case dropCheckIn(asker: WalkerID, asked: WalkerID)
    /// The asker was shown the asked user's last known position: the request fires no more.
    case markRevealed(asker: WalkerID, asked: WalkerID)
    case checkedIn(WalkerID, at: EpochSeconds)
    case homeSafe(WalkerID, HomeSafe?)
    case reveal(WalkerID, Bool)
    /// `viewer` is shown `walker`'s incident (`{viewer}/shared/{walker}`).
    case show(walker: WalkerID, viewer: WalkerID, incident: String)
    case hide(walker: WalkerID, viewer: WalkerID)
    /// Keeps an event in the user's inbox (ignored when one with its id is there already).
    case deliver(to: WalkerID, InboxEvent)
    /// Everything about a user, in every table (an account erasure).
    case erase(WalkerID)
}
