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

    static func watch(from row: Row) -> Watch? {
        guard let walker = WalkerID(validating: row["walker"]) else { return nil }
        let timers = WatchTimers(
            watchedSince: row["watchedSince"], lastCheckInAt: row["lastCheckInAt"],
            promptSentAt: row["promptSentAt"], lastMovedAt: row["lastMovedAt"],
            walkETA: row["walkETA"], offlineSince: row["offlineSince"])
        var walk: WalkPlan?
        if let eta = timers.walkETA {
            walk = WalkPlan(destination: row["walkDestination"] ?? "", eta: eta)
        }
        var incident: Incident?
        if let reason = (row["incidentReason"] as String?).flatMap(EscalationReason.init(rawValue:)) {
            // An unreadable level is read as red: over-escalating beats missing one.
            let level = (row["incidentLevel"] as String?).flatMap(EscalationLevel.init(rawValue:)) ?? .red
            incident = Incident(reason: reason, level: level, at: row["incidentAt"] ?? 0)
        }
        var fix: FixSummary?
        if let lat: Double = row["fixLat"], let lon: Double = row["fixLon"], let tst: Double = row["fixTst"] {
            fix = FixSummary(lat: lat, lon: lon, acc: row["fixAcc"], tst: tst)
        }
        let actions: String = row["recentActions"] ?? ""
        return Watch(
            walker: walker, timers: timers, walk: walk, incident: incident, stateSince: row["stateSince"] ?? 0,
            lastFix: fix, concerned: row["concerned"] ?? false,
            recentActionIDs: actions.isEmpty ? [] : actions.components(separatedBy: separator))
    }
}
