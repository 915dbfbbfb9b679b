import Foundation
import GRDB
import SafeWalkCore
import SafeWalkService

/// The ladder's rows in `notifier.sqlite`. Every function here runs inside a transaction the
/// caller opened (``LadderEngine``), so that a ladder's new state and the jobs its step admits
/// are written together: a SIGKILL between them cannot lose a step or make it twice.
enum LadderStore {
    static func load(_ db: Database, incident: String) throws -> (LadderRecord, [LadderMember])? {
        guard
            let data = try Data.fetchOne(
                db.cachedStatement(sql: "SELECT record FROM ladder WHERE incident = ?"), arguments: [incident])
        else { return nil }
        let record = try SafeWalkJSON.decoder().decode(LadderRecord.self, from: data)
        let members = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM ladder_recipient WHERE incident = ? ORDER BY position"),
            arguments: [incident]
        ).map { row in
            LadderMember(
                key: row["key"], name: row["name"], tier: LadderTier(rawValue: row["tier"]) ?? .first,
                channel: row["channel"], address: row["address"], token: row["token"], toldAt: row["toldAt"],
                receipt: row["receipt"], ref: row["ref"], fallbacks: row["fallbacks"])
        }
        return (record, members)
    }

    /// Writes the ladder and its recipients; returns the new revision (states are published in
    /// revision order, so an older one never overwrites a newer one).
    @discardableResult
    static func save(
        _ db: Database, _ record: LadderRecord, _ members: [LadderMember], settings: LadderSettings, now: Double
    ) throws -> Int {
        let revision =
            (try Int.fetchOne(
                db.cachedStatement(sql: "SELECT revision FROM ladder WHERE incident = ?"),
                arguments: [record.ladder.incident]) ?? 0) + 1
        try db.cachedStatement(
            sql: """
                INSERT INTO ladder (incident, walker, record, open, deadline, code, revision, updatedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(incident) DO UPDATE SET record = excluded.record, open = excluded.open,
                    deadline = excluded.deadline, revision = excluded.revision, updatedAt = excluded.updatedAt
                """
        ).execute(
            arguments: [
                record.ladder.incident, record.walker.rawValue, try SafeWalkJSON.encode(record),
                !record.ladder.isClosed, record.ladder.nextDeadline(settings), record.code, revision, now,
            ])
        let saveMember = try db.cachedStatement(
            sql: """
                INSERT INTO ladder_recipient (incident, key, position, name, tier, channel, address, token, digest,
                    toldAt, receipt, ref, fallbacks) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(incident, key) DO UPDATE SET toldAt = excluded.toldAt, receipt = excluded.receipt,
                    ref = excluded.ref, fallbacks = excluded.fallbacks
                """)
        for (position, member) in members.enumerated() {
            try saveMember.execute(
                arguments: [
                    record.ladder.incident, member.key, position, member.name, member.tier.rawValue, member.channel,
                    member.address, member.token, PageToken.digest(member.token), member.toldAt, member.receipt,
                    member.ref, member.fallbacks,
                ])
        }
        return revision
    }

    /// Admits jobs into the ledger (a known id is skipped) and remembers each text's reference.
    static func admit(
        _ db: Database, _ jobs: [LadderJob], incident: String,
        targets: (DeliveryPlan) -> [(channel: String, target: DeliveryTarget)], now: Double
    ) throws -> [LadderJob] {
        var admitted: [LadderJob] = []
        for job in jobs {
            let inserted = try DeliveryLedger.insert(
                db, job.event, eventJSON: try SafeWalkJSON.encode(job.event),
                planJSON: try SafeWalkJSON.encode(job.plan),
                targets: targets(job.plan), now: now)
            guard inserted else { continue }
            for recipient in job.plan.recipients {
                guard let ref = recipient.ref else { continue }
                try db.cachedStatement(
                    sql: "INSERT OR IGNORE INTO ladder_text (ref, incident, key, job) VALUES (?, ?, ?, ?)"
                ).execute(arguments: [ref, incident, recipient.phone, job.event.id])
            }
            admitted.append(job)
        }
        return admitted
    }

    /// Open incidents whose next step is due by `now`.
    static func due(_ db: Database, now: Double) throws -> [String] {
        try String.fetchAll(
            db.cachedStatement(sql: "SELECT incident FROM ladder WHERE open = 1 AND deadline <= ? ORDER BY deadline"),
            arguments: [now])
    }

    static func nextDeadline(_ db: Database) throws -> Double? {
        try Double.fetchOne(db.cachedStatement(sql: "SELECT MIN(deadline) FROM ladder WHERE open = 1"))
    }

    /// The open incident a page or number was told of: by digest, or by number (and code).
    static func incidents(_ db: Database, digest: String) throws -> [(incident: String, key: String)] {
        try Row.fetchAll(
            db, sql: "SELECT incident, key FROM ladder_recipient WHERE digest = ? AND toldAt IS NOT NULL",
            arguments: [digest]
        ).map { ($0["incident"], $0["key"]) }
    }

    /// Incidents that told `phone`, newest first, optionally only the one with `code`.
    static func incidents(_ db: Database, phone: String, code: String?) throws -> [(incident: String, open: Bool)] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT l.incident, l.open FROM ladder_recipient r JOIN ladder l ON l.incident = r.incident
                WHERE r.address = ? AND r.toldAt IS NOT NULL AND (? IS NULL OR l.code = ?)
                ORDER BY l.open DESC, r.toldAt DESC
                """, arguments: [phone, code, code]
        ).map { ($0["incident"], $0["open"]) }
    }

    /// The walker's latest open incident, or their latest closed one when none is open. Latest
    /// is by rowid: ladders are inserted when their incident opens and updated in place after.
    static func latestIncident(_ db: Database, walker: WalkerID) throws -> String? {
        try String.fetchOne(
            db, sql: "SELECT incident FROM ladder WHERE walker = ? ORDER BY open DESC, rowid DESC LIMIT 1",
            arguments: [walker.rawValue])
    }

    static func text(_ db: Database, ref: String) throws -> (incident: String, key: String, status: String?)? {
        try Row.fetchOne(db, sql: "SELECT incident, key, status FROM ladder_text WHERE ref = ?", arguments: [ref])
            .map { ($0["incident"], $0["key"], $0["status"]) }
    }

    static func setText(_ db: Database, ref: String, status: String) throws {
        try db.execute(sql: "UPDATE ladder_text SET status = ? WHERE ref = ?", arguments: [status, ref])
    }

    static func openIncidents(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT incident FROM ladder WHERE open = 1 ORDER BY updatedAt")
    }

    /// How an incident whose escalation has not arrived was closed.
    struct Tombstone {
        var closedAt: Double
        var closedBy: IncidentState.Closer?
        var closeReason: DeskCloseReason?
    }

    static func tombstone(_ db: Database, incident: String) throws -> Tombstone? {
        try Row.fetchOne(
            db, sql: "SELECT closedAt, closedBy, closeReason FROM ladder_tombstone WHERE incident = ?",
            arguments: [incident]
        ).map { row in
            Tombstone(
                closedAt: row["closedAt"], closedBy: (row["closedBy"] as String?).flatMap(IncidentState.Closer.init),
                closeReason: (row["closeReason"] as String?).flatMap(DeskCloseReason.init))
        }
    }

    static func bury(_ db: Database, _ state: IncidentState, closedAt: Double) throws {
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO ladder_tombstone (incident, walker, closedAt, closedBy, closeReason)
                VALUES (?, ?, ?, ?, ?)
                """,
            arguments: [
                state.incident, state.walker.rawValue, closedAt, state.closedBy?.rawValue, state.closeReason?.rawValue,
            ])
    }
}

extension DeliveryLedger {
    /// An erasure's share of the ladder: every row naming the walker's incidents.
    static func eraseLadders(_ db: Database, _ walker: WalkerID) throws {
        let incidents = "SELECT incident FROM ladder WHERE walker = ?"
        try db.execute(
            sql: "DELETE FROM ladder_recipient WHERE incident IN (\(incidents))", arguments: [walker.rawValue])
        try db.execute(sql: "DELETE FROM ladder_text WHERE incident IN (\(incidents))", arguments: [walker.rawValue])
        try db.execute(sql: "DELETE FROM ladder WHERE walker = ?", arguments: [walker.rawValue])
        try db.execute(sql: "DELETE FROM ladder_tombstone WHERE walker = ?", arguments: [walker.rawValue])
    }
}
