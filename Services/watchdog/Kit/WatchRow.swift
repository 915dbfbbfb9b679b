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

    /// The columns in the order ``watch(from:)`` reads them (by index, straight from SQLite:
    /// far cheaper than by name, or through GRDB's `Row`, when a million rows are restored).
    static let select = "SELECT \(columns) FROM watch"

    static func watch(from row: WatchColumns) -> Watch? {
        guard let raw = row.text(0), let walker = WalkerID(validating: raw) else { return nil }
        let timers = WatchTimers(
            watchedSince: row.double(1), lastCheckInAt: row.double(2), promptSentAt: row.double(3),
            lastMovedAt: row.double(4), walkETA: row.double(5), offlineSince: row.double(6))
        var walk: WalkPlan?
        if let eta = timers.walkETA {
            walk = WalkPlan(destination: row.text(7) ?? "", eta: eta, to: destination(row))
        }
        var fix: FixSummary?
        if let lat = row.double(12), let lon = row.double(13), let tst = row.double(15) {
            fix = FixSummary(lat: lat, lon: lon, acc: row.double(14), tst: tst)
        }
        return Watch(
            walker: walker, timers: timers, walk: walk,
            incident: incident(row, of: walker, id: 27, reason: 8, level: 9, at: 10),
            stateSince: row.double(11) ?? 0, lastFix: fix, concerned: row.bool(16) ?? false,
            recentActions: row.withBytes(17, remembered), hold: hold(row), pins: pins(row),
            wrongPins: row.int(24) ?? 0,
            duress: incident(row, of: walker, id: 28, reason: 25, level: nil, at: 26),
            progress: walk?.to == nil ? nil : progress(row), usesLocation: row.bool(40) ?? true,
            locationPausedAt: row.double(41))
    }

    private static func destination(_ row: WatchColumns) -> Coordinate? {
        guard let lat = row.double(29), let lon = row.double(30) else { return nil }
        return Coordinate(lat: lat, lon: lon)
    }

    private static func progress(_ row: WatchColumns) -> WalkProgress? {
        guard let duration = row.double(31), let stallSince = row.double(35) else { return nil }
        return WalkProgress(
            duration: duration, extendWhileProgressing: row.bool(32) ?? false, stallSince: stallSince,
            bestDistance: row.double(33), closerAt: row.double(34), stallPrompted: row.bool(36) ?? false,
            fixesAtDestination: row.int(37) ?? 0, moreTimeAskedAt: row.double(38), extended: row.bool(39) ?? false)
    }

    /// An unreadable level is read as red: over-escalating beats missing one. A duress incident
    /// is always red. A missing id (migration `v3` fills every one) is made as `v3` would.
    private static func incident(
        _ row: WatchColumns, of walker: WalkerID, id: Int32, reason: Int32, level: Int32?, at: Int32
    ) -> Incident? {
        guard let reason = row.text(reason).flatMap(EscalationReason.init(rawValue:)) else { return nil }
        let level = level.flatMap { row.text($0).flatMap(EscalationLevel.init(rawValue:)) } ?? .red
        let at: EpochSeconds = row.double(at) ?? 0
        return Incident(id: row.text(id) ?? "\(walker)-\(at)", reason: reason, level: level, at: at)
    }

    private static func hold(_ row: WatchColumns) -> HoldSwitch? {
        guard let beat = row.double(19) else { return nil }
        let level = row.text(18).flatMap(EscalationLevel.init(rawValue:)) ?? .red
        return HoldSwitch(level: level, lastBeatAt: beat, note: row.text(20))
    }

    private static func pins(_ row: WatchColumns) -> PINHashes? {
        guard let salt = row.bytes(21), let cancel = row.bytes(22) else { return nil }
        return PINHashes(salt: salt, cancel: cancel, duress: row.bytes(23))
    }

    /// Rows written before `v2` hold bare ids: those were applied, so their answer is `ok`. Read
    /// from the column's UTF-8 bytes: both separators are ASCII, and splitting a `String` by
    /// `Character` was a third of the time a million watches took to restore.
    private static func remembered(_ text: UnsafeBufferPointer<UInt8>) -> [RememberedAction] {
        guard !text.isEmpty else { return [] }
        var result: [RememberedAction] = []
        var start = 0
        for end in 0...text.count where end == text.count || text[end] == UInt8(ascii: "\n") {
            result.append(rememberedAction(UnsafeBufferPointer(rebasing: text[start..<end])))
            start = end + 1
        }
        return result
    }

    private static func rememberedAction(_ line: UnsafeBufferPointer<UInt8>) -> RememberedAction {
        guard let tab = line.firstIndex(of: UInt8(ascii: "\t")) else {
            return RememberedAction(id: String(decoding: line, as: UTF8.self), answer: "ok")
        }
        return RememberedAction(
            id: String(decoding: UnsafeBufferPointer(rebasing: line[..<tab]), as: UTF8.self),
            answer: String(decoding: UnsafeBufferPointer(rebasing: line[(tab + 1)...]), as: UTF8.self))
    }
}
