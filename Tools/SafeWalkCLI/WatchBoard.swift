import SafeWalkCore

/// What `watch` knows about each walker, for the live status line: the last status and the
/// reply deadline of the open check-in. Pure: fed events, asked for text at a given time.
public struct WatchBoard: Sendable {
    public struct Walker: Sendable, Equatable {
        public var status: WatchStatus?
        /// `replyBy` of the last prompt, while the status is `checking`.
        public var replyBy: EpochSeconds?
        public var presence: Presence?
    }

    public private(set) var walkers: [WalkerID: Walker] = [:]

    public init() {}

    public mutating func apply(_ event: WatchEvent, walker: WalkerID?) {
        guard let walker else { return }
        var entry = walkers[walker] ?? Walker()
        switch event {
        case .status(let status):
            entry.status = status
            if status.state != .checking { entry.replyBy = nil }
        case .prompt(let prompt): entry.replyBy = prompt.replyBy
        case .presence(let presence): entry.presence = presence
        default: return
        }
        walkers[walker] = entry
    }

    /// One segment per walker with a status, e.g. `alice CHECKING reply in 01:42`.
    public func statusLine(now: EpochSeconds, style: Style) -> String {
        walkers.keys.sorted().compactMap { id -> String? in
            guard let walker = walkers[id], let status = walker.status else { return nil }
            return style.bold(id.rawValue) + " "
                + WatchFormatter.summary(
                    status, replyBy: walker.replyBy,
                    now: now, style: style)
        }.joined(separator: "  │  ")
    }
}
