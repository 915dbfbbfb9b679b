import SafeWalkCore

/// The order in which retained state rows (statuses, incident states) are published. Each is the
/// last word on its topic, so two rows of one topic must never be in flight together (the broker
/// could keep the older one), and an older one is not worth sending once a newer row with the
/// same key replaced it in SQLite.
enum RetainedRounds {
    /// `rows`, in the order they were committed, as rounds to publish one after the other: of the
    /// rows with the same key only the last is sent; each round holds at most one row per topic;
    /// a topic's rows go out in commit order, one per round (so the close of an incident precedes
    /// the next incident of that walker). Order is by commit, not by `seq`: rows a failed commit
    /// published anyway have no `seq`.
    static func rounds(_ rows: [OutboxRow]) -> [[OutboxRow]] {
        var lastWithKey: [String: Int] = [:]
        for (index, row) in rows.enumerated() { lastWithKey[row.item.key] = index }
        var rounds: [[OutboxRow]] = []
        var sentBefore: [String: Int] = [:]
        for (index, row) in rows.enumerated() where lastWithKey[row.item.key] == index {
            let round = sentBefore[row.item.topic, default: 0]
            sentBefore[row.item.topic] = round + 1
            if round == rounds.count { rounds.append([]) }
            rounds[round].append(row)
        }
        return rounds
    }
}
