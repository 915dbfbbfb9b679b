import SafeWalkCore

/// One fix to keep in history.
public struct HistoryRow: Hashable, Sendable {
    public var walker: WalkerID
    public var fix: LocationFix
    public var receivedAt: EpochSeconds

    public init(walker: WalkerID, fix: LocationFix, receivedAt: EpochSeconds) {
        self.walker = walker
        self.fix = fix
        self.receivedAt = receivedAt
    }
}

/// Everything one batch of messages asks the IO shell to do.
public struct BatchPlan: Sendable {
    /// Valid fixes to store, accepted and out-of-order alike.
    public var history: [HistoryRow] = []
    /// The final track of every walker this batch changed.
    public var tracks: [WalkerID: WalkerTrack] = [:]
    /// The newest position per walker. Only the newest is published: the topic is retained,
    /// so intermediate positions would be overwritten at once. `moved` is true when any fix in
    /// the batch proved movement, so coalescing never hides movement.
    public var positions: [WalkerID: PositionUpdate] = [:]
    public var rejections: [(reason: String, kind: Topic.Kind, walker: WalkerID?)] = []
    public var ignored: [(walker: WalkerID, type: String)] = []
    /// Empty messages on OwnTracks topics: retained messages being cleared.
    public var cleared = 0
    /// Walkers whose OwnTracks will changed, to persist, and those whose app went or came back,
    /// to announce. Only who: the stages after read the will as it is then from ``IngestCore``, so
    /// plans from the two subscriptions, offered in either order, cannot leave an older word last.
    public var willsChanged: Set<WalkerID> = []
    public var presenceChanged: Set<WalkerID> = []
    public var accepted = 0
    public var outOfOrder = 0
    public var duplicates = 0
}
