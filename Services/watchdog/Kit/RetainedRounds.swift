import SafeWalkCore

/// The order in which retained state rows (statuses, incident states) are published. Each is the
/// walker's last word on its topic, so two of one walker must never be in flight together (the
/// broker could keep the older one), and an older one is not worth sending once a newer row with
/// the same key replaced it in SQLite.
enum RetainedRounds {
    /// `rows`, in the order they were committed, as rounds to publish one after the other: of the
    /// rows with the same key only the last is sent; each round holds at most one row per walker;
    /// a walker's rows go out in commit order, one per round. Order is by commit, not by `seq`:
    /// rows a failed commit published anyway have no `seq`.
    static func rounds(_ rows: [OutboxRow]) -> [[OutboxRow]] {
        var lastWithKey: [String: Int] = [:]
        for (index, row) in rows.enumerated() { lastWithKey[row.item.key] = index }
        var rounds: [[OutboxRow]] = []
        var sentBefore: [WalkerID: Int] = [:]
        for (index, row) in rows.enumerated() where lastWithKey[row.item.key] == index {
            let round = sentBefore[row.item.walker, default: 0]
            sentBefore[row.item.walker] = round + 1
            if round == rounds.count { rounds.append([]) }
            rounds[round].append(row)
        }
        return rounds
    }
}
