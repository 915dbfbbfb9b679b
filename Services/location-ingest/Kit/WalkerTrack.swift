import SafeWalkCore

/// What ingest remembers about one walker: the last accepted fix and the movement anchor.
/// Persisted, so a restart neither forgets the last fix nor counts as movement.
public struct WalkerTrack: Hashable, Sendable {
    public var last: LocationFix
    public var anchor: MovementAnchor

    public init(last: LocationFix, anchor: MovementAnchor) {
        self.last = last
        self.anchor = anchor
    }
}

/// What a valid fix means for its walker.
public enum FixDisposition: Hashable, Sendable {
    /// Newer than the last accepted fix: the walker's new position.
    case accepted(PositionUpdate)
    /// Not newer than the last accepted fix (a phone replaying its queue): kept in history,
    /// but it must not move the walker backwards.
    case outOfOrder
    /// Identical to the last accepted fix (a QoS 1 redelivery, a double publish): dropped.
    case duplicate
}

/// The pure decision ingest makes for each valid fix.
public struct TrackRule: Hashable, Sendable {
    public var movement: MovementRule

    public init(movement: MovementRule) {
        self.movement = movement
    }

    /// The walker's track after `fix`, and what the fix meant.
    public func apply(_ fix: LocationFix, to track: WalkerTrack?) -> (WalkerTrack?, FixDisposition) {
        guard let track else {
            let step = movement.apply(fix, to: nil)
            let update = PositionUpdate(fix: fix, moved: false, lastMovedAt: step.anchor.movedAt)
            return (WalkerTrack(last: fix, anchor: step.anchor), .accepted(update))
        }
        if fix == track.last { return (track, .duplicate) }
        // Equal time but different content is not newer either: position only moves forward.
        if fix.tst <= track.last.tst { return (track, .outOfOrder) }
        let step = movement.apply(fix, to: track.anchor)
        let update = PositionUpdate(fix: fix, moved: step.moved, lastMovedAt: step.anchor.movedAt)
        return (WalkerTrack(last: fix, anchor: step.anchor), .accepted(update))
    }
}
