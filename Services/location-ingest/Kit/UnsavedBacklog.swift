import SafeWalkCore

/// History, tracks and OwnTracks wills that a failed commit (disk full, file unwritable) could not write. They
/// are kept in memory and written with the next commit, so a full disk delays history instead of
/// losing fixes the broker has already acknowledged. Bounded: beyond `limit` rows the oldest are
/// dropped (and counted), so a disk that never recovers cannot exhaust memory.
public struct UnsavedBacklog: Sendable {
    public let limit: Int
    public private(set) var history: [HistoryRow] = []
    public private(set) var tracks: [WalkerID: WalkerTrack] = [:]
    /// Walkers whose will is to be written (as ``IngestCore`` knows it at the next commit).
    public private(set) var wills: Set<WalkerID> = []
    /// Rows dropped because the backlog was full, since start.
    public private(set) var dropped = 0

    public init(limit: Int) {
        self.limit = max(1, limit)
    }

    public var isEmpty: Bool { history.isEmpty && tracks.isEmpty && wills.isEmpty }

    /// What the next commit must write: the backlog first, then the new rows; per walker the
    /// newest track wins.
    public func including(
        _ newHistory: [HistoryRow], _ newTracks: [WalkerID: WalkerTrack], wills newWills: Set<WalkerID> = []
    ) -> (history: [HistoryRow], tracks: [WalkerID: WalkerTrack], wills: Set<WalkerID>) {
        guard !isEmpty else { return (newHistory, newTracks, newWills) }
        return (
            history + newHistory, tracks.merging(newTracks) { $0.last.tst >= $1.last.tst ? $0 : $1 },
            wills.union(newWills)
        )
    }

    /// The commit of `history` and `tracks` failed: keep them for the next one. Returns how many
    /// of the oldest rows had to be dropped to stay within `limit`.
    @discardableResult
    public mutating func keep(
        _ history: [HistoryRow], _ tracks: [WalkerID: WalkerTrack], wills: Set<WalkerID> = []
    ) -> Int {
        let excess = max(0, history.count - limit)
        self.history = Array(history.dropFirst(excess))
        self.tracks = tracks
        self.wills = wills
        dropped += excess
        return excess
    }

    /// The commit succeeded.
    public mutating func clear() {
        history = []
        tracks = [:]
        wills = []
    }
}
