import Foundation
import GRDB
import SafeWalkCore

/// Column mapping of ``Watch`` (plain columns, not JSON: restoring a million watches at
/// start-up must not pay for a JSON decoder per row).
enum WatchRow {
    static let columns = """
        walker, watchedSince, lastCheckInAt, promptSentAt, lastMovedAt, walkETA, offlineSince,
        walkDestination, incidentReason, incidentLevel, incidentAt, stateSince,
        fixLat, fixLon, fixAcc, fixTst, concerned, recentActions,
        holdLevel, holdBeatAt, holdNote, pinSalt, cancelPinHash, duressPinHash, wrongPins, duressReason, duressAt,
        incidentID, duressID,
        walkToLat, walkToLon, walkDuration, walkExtend, walkBest, walkCloserAt, walkStallSince, walkStallPrompted,
        walkAtDestination, walkAskedAt, walkExtended,
        usesLocation, locationPausedAt
        """

    static let upsert = """
        INSERT OR REPLACE INTO watch (\(columns))
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
            ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// Remembered actions are `id TAB answer` lines: action ids never contain a control
    /// character (both readers refuse them), so neither separator can occur inside one.
    static let separator = "\n"
    static let answerSeparator: Character = "\t"

    /// Columns added by migration `v2` (hold-to-release, PINs, duress).
    static let v2Columns = """
        ALTER TABLE watch ADD COLUMN holdLevel TEXT;
        ALTER TABLE watch ADD COLUMN holdBeatAt REAL;
        ALTER TABLE watch ADD COLUMN holdNote TEXT;
        ALTER TABLE watch ADD COLUMN pinSalt BLOB;
        ALTER TABLE watch ADD COLUMN cancelPinHash BLOB;
        ALTER TABLE watch ADD COLUMN duressPinHash BLOB;
        ALTER TABLE watch ADD COLUMN wrongPins INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE watch ADD COLUMN duressReason TEXT;
        ALTER TABLE watch ADD COLUMN duressAt REAL;
        """

    /// Migration `v3`: incidents get ids. An incident open across the upgrade gets the id of the
    /// walker's latest escalation of its kind (duress or not), which the outbox keeps as its audit
    /// trail: the one its contacts heard of last. Escalations written before carry no `incident`,
    /// so each reads as its own; the latest is the one a close should name. Without one (never
    /// expected), an id made of the walker and the time.
    static let v3Columns = """
        ALTER TABLE watch ADD COLUMN incidentID TEXT;
        ALTER TABLE watch ADD COLUMN duressID TEXT;
        UPDATE watch SET incidentID = COALESCE(
            (SELECT key FROM outbox WHERE outbox.walker = watch.walker AND kind = 'escalation'
                AND CAST(payload AS TEXT) NOT LIKE '%"duress":true%' ORDER BY seq DESC LIMIT 1),
            walker || '-' || incidentAt)
        WHERE incidentReason IS NOT NULL;
        UPDATE watch SET duressID = COALESCE(
            (SELECT key FROM outbox WHERE outbox.walker = watch.walker AND kind = 'escalation'
                AND CAST(payload AS TEXT) LIKE '%"duress":true%' ORDER BY seq DESC LIMIT 1),
            walker || '-' || duressAt)
        WHERE duressReason IS NOT NULL;
        """

    /// Migration `v4`: walks that know where they are going. Every column may be NULL (or is 0), so
    /// a row written before reads as a walk without `to`, whose rules are the old ones. The walk's
    /// progress is kept only when `walkStallSince` is set.
    static let v4Columns = """
        ALTER TABLE watch ADD COLUMN walkToLat REAL;
        ALTER TABLE watch ADD COLUMN walkToLon REAL;
        ALTER TABLE watch ADD COLUMN walkDuration REAL;
        ALTER TABLE watch ADD COLUMN walkExtend INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE watch ADD COLUMN walkBest REAL;
        ALTER TABLE watch ADD COLUMN walkCloserAt REAL;
        ALTER TABLE watch ADD COLUMN walkStallSince REAL;
        ALTER TABLE watch ADD COLUMN walkStallPrompted INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE watch ADD COLUMN walkAtDestination INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE watch ADD COLUMN walkAskedAt REAL;
        ALTER TABLE watch ADD COLUMN walkExtended INTEGER NOT NULL DEFAULT 0;
        """

    /// Migration `v5`: whether the watch follows the walker's location (`"location": false`), and
    /// the app's `background` pause. A row written before follows it, unpaused, as every watch did.
    static let v5Columns = """
        ALTER TABLE watch ADD COLUMN usesLocation INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE watch ADD COLUMN locationPausedAt REAL;
        """

    static func arguments(_ w: Watch) -> StatementArguments {
        let t = w.timers
        let remembered = w.recentActions.map { "\($0.id)\(answerSeparator)\($0.answer)" }.joined(separator: separator)
        var arguments: StatementArguments = [
            w.walker.rawValue, t.watchedSince, t.lastCheckInAt, t.promptSentAt, t.lastMovedAt,
            t.walkETA, t.offlineSince, w.walk?.destination, w.incident?.reason.rawValue,
            w.incident?.level.rawValue, w.incident?.at, w.stateSince,
            w.lastFix?.lat, w.lastFix?.lon, w.lastFix?.acc, w.lastFix?.tst,
            w.concerned, remembered,
        ]
        arguments += [
            w.hold?.level.rawValue, w.hold?.lastBeatAt, w.hold?.note,
            w.pins.map { Data($0.salt) }, w.pins.map { Data($0.cancel) }, w.pins?.duress.map { Data($0) },
            w.wrongPins, w.duress?.reason.rawValue, w.duress?.at, w.incident?.id, w.duress?.id,
        ]
        let p = w.progress
        arguments += [
            w.walk?.to?.lat, w.walk?.to?.lon, p?.duration, p?.extendWhileProgressing ?? false, p?.bestDistance,
            p?.closerAt, p?.stallSince, p?.stallPrompted ?? false, p?.fixesAtDestination ?? 0, p?.moreTimeAskedAt,
            p?.extended ?? false, w.usesLocation, w.locationPausedAt,
        ]
        return arguments
    }

    /// The columns in the order ``watch(from:)`` reads them (by index: far cheaper than by name
    /// when a million rows are restored).
    static let select = "SELECT \(columns) FROM watch"

    static func watch(from row: Row) -> Watch? {
        guard let walker = WalkerID(validating: row[0]) else { return nil }
        let timers = WatchTimers(
            watchedSince: row[1], lastCheckInAt: row[2], promptSentAt: row[3], lastMovedAt: row[4],
            walkETA: row[5], offlineSince: row[6])
        var walk: WalkPlan?
        if let eta = timers.walkETA {
            walk = WalkPlan(destination: row[7] ?? "", eta: eta, to: destination(row))
        }
        var fix: FixSummary?
        if let lat: Double = row[12], let lon: Double = row[13], let tst: Double = row[15] {
            fix = FixSummary(lat: lat, lon: lon, acc: row[14], tst: tst)
        }
        return Watch(
            walker: walker, timers: timers, walk: walk,
            incident: incident(row, of: walker, id: 27, reason: 8, level: 9, at: 10),
            stateSince: row[11] ?? 0, lastFix: fix, concerned: row[16] ?? false,
            recentActions: remembered(row[17] ?? ""), hold: hold(row), pins: pins(row), wrongPins: row[24] ?? 0,
            duress: incident(row, of: walker, id: 28, reason: 25, level: nil, at: 26),
            progress: walk?.to == nil ? nil : progress(row), usesLocation: row[40] ?? true,
            locationPausedAt: row[41])
    }

    private static func destination(_ row: Row) -> Coordinate? {
        guard let lat: Double = row[29], let lon: Double = row[30] else { return nil }
        return Coordinate(lat: lat, lon: lon)
    }

    private static func progress(_ row: Row) -> WalkProgress? {
        guard let duration: Double = row[31], let stallSince: Double = row[35] else { return nil }
        return WalkProgress(
            duration: duration, extendWhileProgressing: row[32] ?? false, stallSince: stallSince,
            bestDistance: row[33], closerAt: row[34], stallPrompted: row[36] ?? false,
            fixesAtDestination: row[37] ?? 0, moreTimeAskedAt: row[38], extended: row[39] ?? false)
    }

    /// An unreadable level is read as red: over-escalating beats missing one. A duress incident
    /// is always red. A missing id (migration `v3` fills every one) is made as `v3` would.
    private static func incident(
        _ row: Row, of walker: WalkerID, id: Int, reason: Int, level: Int?, at: Int
    ) -> Incident? {
        guard let reason = (row[reason] as String?).flatMap(EscalationReason.init(rawValue:)) else { return nil }
        let level = level.flatMap { (row[$0] as String?).flatMap(EscalationLevel.init(rawValue:)) } ?? .red
        let at: EpochSeconds = row[at] ?? 0
        return Incident(id: row[id] ?? "\(walker)-\(at)", reason: reason, level: level, at: at)
    }

    private static func hold(_ row: Row) -> HoldSwitch? {
        guard let beat: Double = row[19] else { return nil }
        let level = (row[18] as String?).flatMap(EscalationLevel.init(rawValue:)) ?? .red
        return HoldSwitch(level: level, lastBeatAt: beat, note: row[20])
    }

    private static func pins(_ row: Row) -> PINHashes? {
        guard let salt: Data = row[21], let cancel: Data = row[22] else { return nil }
        return PINHashes(salt: Array(salt), cancel: Array(cancel), duress: (row[23] as Data?).map(Array.init))
    }

    /// Rows written before `v2` hold bare ids: those were applied, so their answer is `ok`.
    private static func remembered(_ text: String) -> [RememberedAction] {
        guard !text.isEmpty else { return [] }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let parts = line.split(separator: answerSeparator, maxSplits: 1, omittingEmptySubsequences: false)
            return RememberedAction(id: String(parts[0]), answer: parts.count > 1 ? String(parts[1]) : "ok")
        }
    }
}
