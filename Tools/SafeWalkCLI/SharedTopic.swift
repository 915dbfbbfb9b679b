import SafeWalkCore

/// `{prefix}/{viewer}/shared/{other}`: `other`'s live view for `viewer`. The one circle topic
/// about two walkers, so it is deliberately not a `Topic.Kind` and `Topic.parse` does not know
/// it (docs/CONTRACT.md); `watch` reads it with this, the only hand-parsed topic in the CLI.
/// Built by `Topic.shared(for:of:prefix:)`.
public struct SharedTopic: Hashable, Sendable {
    public let viewer: WalkerID
    public let other: WalkerID

    /// The two walkers of a shared-view topic, or nil for any other topic: a different prefix,
    /// a level too many or too few, or a level that is not a valid walker id (empty, a wildcard,
    /// a reserved name such as `_incidents`).
    public static func parse(_ topic: String, prefix: String) -> SharedTopic? {
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        let prefixLevels = prefix.split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == prefixLevels.count + 3, levels.starts(with: prefixLevels) else { return nil }
        let rest = levels.suffix(3).map(String.init)
        guard rest[1] == "shared", let viewer = WalkerID(validating: rest[0]),
            let other = WalkerID(validating: rest[2])
        else { return nil }
        return SharedTopic(viewer: viewer, other: other)
    }
}
