import GRDB
import SafeWalkCore

/// Column mapping of ``Watch`` (plain columns, not JSON: restoring a million watches at
/// start-up must not pay for a JSON decoder per row).
enum WatchRow {
    static let upsert = """
        INSERT OR REPLACE INTO watch (walker, watchedSince, lastCheckInAt, promptSentAt, lastMovedAt,
            walkETA, offlineSince, walkDestination, incidentReason, incidentLevel, incidentAt, stateSince,
            fixLat, fixLon, fixAcc, fixTst, concerned, recentActions)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// Action ids never contain a newline (the input decoder refuses them), so it separates them.
    static let separator = "\n"

    static func arguments(_ w: Watch) -> StatementArguments {
        let t = w.timers
        return [
            w.walker.rawValue, t.watchedSince, t.lastCheckInAt, t.promptSentAt, t.lastMovedAt,
            t.walkETA, t.offlineSince, w.walk?.destination, w.incident?.reason.rawValue,
            w.incident?.level.rawValue, w.incident?.at, w.stateSince,
            w.lastFix?.lat, w.lastFix?.lon, w.lastFix?.acc, w.lastFix?.tst,
            w.concerned, w.recentActionIDs.joined(separator: separator),
        ]
    }

    /// The columns in the order ``watch(from:)`` reads them (by index: far cheaper than by name
    /// when a million rows are restored).
    static let select = """
        SELECT walker, watchedSince, lastCheckInAt, promptSentAt, lastMovedAt, walkETA, offlineSince,
            walkDestination, incidentReason, incidentLevel, incidentAt, stateSince,
            fixLat, fixLon, fixAcc, fixTst, concerned, recentActions
        FROM watch
        """

    static func watch(from row: Row) -> Watch? {
        guard let walker = WalkerID(validating: row[0]) else { return nil }
        let timers = WatchTimers(
            watchedSince: row[1], lastCheckInAt: row[2], promptSentAt: row[3], lastMovedAt: row[4],
            walkETA: row[5], offlineSince: row[6])
        var walk: WalkPlan?
        if let eta = timers.walkETA {
            walk = WalkPlan(destination: row[7] ?? "", eta: eta)
        }
        var incident: Incident?
        if let reason = (row[8] as String?).flatMap(EscalationReason.init(rawValue:)) {
            // An unreadable level is read as red: over-escalating beats missing one.
            let level = (row[9] as String?).flatMap(EscalationLevel.init(rawValue:)) ?? .red
            incident = Incident(reason: reason, level: level, at: row[10] ?? 0)
        }
        var fix: FixSummary?
        if let lat: Double = row[12], let lon: Double = row[13], let tst: Double = row[15] {
            fix = FixSummary(lat: lat, lon: lon, acc: row[14], tst: tst)
        }
        let actions: String = row[17] ?? ""
        let actionIDs = actions.isEmpty ? [] : actions.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return Watch(
            walker: walker, timers: timers, walk: walk, incident: incident, stateSince: row[11] ?? 0,
            lastFix: fix, concerned: row[16] ?? false,
            recentActionIDs: actionIDs)
    }
}
