import Foundation
import GRDB
import SafeWalkCore

/// The monitoring desk's part of `web.sqlite` (docs/services/web.md, "The monitoring desk"):
/// each account's role, the audit of every look an operator took (`desk_views`), the desk's own
/// log of each incident (notes, hand-overs, closes: `desk_log`) and each incident's figures
/// (`desk_incidents`). Rows about a walker go with the walker's account (``forgetDesk(walkerKey:)``
/// in the erasure's last step); none references `accounts`, because the desk sees incidents of
/// walkers web may not have an account for (a tracker's login made by hand).
extension WebDatabase {
    static func registerDeskMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v5-desk") { db in
            try db.execute(
                sql: """
                    ALTER TABLE accounts ADD COLUMN role TEXT NOT NULL DEFAULT 'walker'
                        CHECK (role IN ('walker', 'operator', 'admin'));
                    CREATE TABLE desk_views (
                        id TEXT NOT NULL PRIMARY KEY,
                        walker TEXT NOT NULL,
                        walker_key TEXT NOT NULL,
                        incident TEXT NOT NULL,
                        operator TEXT NOT NULL,
                        what TEXT NOT NULL,
                        at REAL NOT NULL,
                        duress INTEGER NOT NULL,
                        notice TEXT,
                        notified_at REAL
                    );
                    CREATE INDEX desk_views_by_walker ON desk_views(walker_key, at);
                    CREATE INDEX desk_views_waiting ON desk_views(incident) WHERE notice IS NOT NULL AND notified_at IS NULL;
                    CREATE TABLE desk_log (
                        incident TEXT NOT NULL,
                        walker_key TEXT NOT NULL,
                        at REAL NOT NULL,
                        kind TEXT NOT NULL,
                        operator TEXT NOT NULL,
                        text TEXT NOT NULL
                    );
                    CREATE INDEX desk_log_by_incident ON desk_log(incident, at);
                    CREATE INDEX desk_log_by_walker ON desk_log(walker_key);
                    CREATE TABLE desk_incidents (
                        incident TEXT NOT NULL PRIMARY KEY,
                        walker_key TEXT NOT NULL,
                        opened_at REAL NOT NULL,
                        first_ack_at REAL,
                        closed_at REAL,
                        assignee TEXT
                    );
                    CREATE INDEX desk_incidents_by_walker ON desk_incidents(walker_key);
                    CREATE INDEX desk_incidents_by_close ON desk_incidents(closed_at);
                    """)
        }
    }

    /// Stores an operator (or admin) account, active at once: it has no broker login to wait for.
    public func insertOperator(
        _ form: SignUpForm, hash: PasswordHash, role: Account.Role, at now: Date
    ) async throws -> InsertOutcome {
        precondition(role != .walker, "walkers sign up")
        return try await write { db in
            if try Bool.fetchOne(
                db, sql: "SELECT 1 FROM accounts WHERE username_key = ?", arguments: [form.usernameKey])
                != nil
            {
                return .usernameTaken
            }
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM accounts WHERE email_key = ?", arguments: [form.emailKey])
                != nil
            {
                return .emailTaken
            }
            try db.execute(
                sql: """
                    INSERT INTO accounts (username, username_key, email, email_key, password_hash, state, created_at, role)
                    VALUES (?, ?, ?, ?, ?, 'active', ?, ?)
                    """,
                arguments: [
                    form.username.rawValue, form.usernameKey, form.email, form.emailKey, hash.description,
                    now.timeIntervalSince1970, role.rawValue,
                ])
            return .inserted
        }
    }

    /// Every operator and admin, by name.
    public func operators() async throws -> [(username: WalkerID, role: Account.Role)] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT username, role FROM accounts WHERE role != 'walker' AND state = 'active' ORDER BY username"
            ).compactMap { row in
                guard let name = WalkerID(validating: row["username"]), let role = Account.Role(rawValue: row["role"])
                else { return nil }
                return (name, role)
            }
        }
    }

    // MARK: The audit

    /// Records one look; returns whether it is the first look of this operator at this incident
    /// (the walker is told only once per operator and incident). `notice` is stored with the
    /// view that tells, to be sent now or (duress) when the incident closes.
    public func recordView(_ view: DeskView, notice: DeskNotice?) async throws -> Bool {
        try await write { db in
            let seen =
                try Bool.fetchOne(
                    db, sql: "SELECT 1 FROM desk_views WHERE incident = ? AND operator = ? AND notice IS NOT NULL",
                    arguments: [view.incident, view.operator]) != nil
            let stored: String? =
                seen ? nil : notice.flatMap { try? String(decoding: SafeWalkJSON.encode($0), as: UTF8.self) }
            try db.execute(
                sql: """
                    INSERT INTO desk_views (id, walker, walker_key, incident, operator, what, at, duress, notice)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    view.id, view.walker.rawValue, UsernameRule.key(view.walker), view.incident, view.operator,
                    view.what.rawValue, view.at, view.duress, stored,
                ])
            return !seen
        }
    }

    /// The walker's notices not yet sent (oldest first).
    public func waitingNotices(of walker: WalkerID) async throws -> [(
        id: String, walker: WalkerID, incident: String, notice: Data
    )] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, walker, incident, notice FROM desk_views
                    WHERE walker_key = ? AND notice IS NOT NULL AND notified_at IS NULL ORDER BY at
                    """, arguments: [UsernameRule.key(walker)]
            ).compactMap { row in
                guard let walker = WalkerID(validating: row["walker"]), let text: String = row["notice"] else {
                    return nil
                }
                return (row["id"], walker, row["incident"], Data(text.utf8))
            }
        }
    }

    public func markNotified(_ id: String, at now: EpochSeconds) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE desk_views SET notified_at = ? WHERE id = ?", arguments: [now, id])
        }
    }

    /// The walker's own audit, newest first, leaving out the views whose notice still waits (a
    /// duress incident not yet closed: the walker must not learn of it from here either).
    public func views(ofWalker walker: WalkerID, limit: Int = 200) async throws -> [DeskView] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM desk_views v WHERE walker_key = ? AND NOT EXISTS (
                        SELECT 1 FROM desk_views w WHERE w.incident = v.incident AND w.notice IS NOT NULL
                        AND w.notified_at IS NULL)
                    ORDER BY at DESC LIMIT ?
                    """,
                arguments: [UsernameRule.key(walker), limit]
            ).compactMap(DeskView.init(row:))
        }
    }

    /// Every view of an incident, for its timeline and for tests.
    public func views(ofIncident incident: String) async throws -> [DeskView] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM desk_views WHERE incident = ? ORDER BY at", arguments: [incident])
                .compactMap(DeskView.init(row:))
        }
    }

    // MARK: The desk's log and figures

    public func appendLog(_ entry: DeskLogEntry, walker: WalkerID) async throws {
        try await write { db in
            try db.execute(
                sql: "INSERT INTO desk_log (incident, walker_key, at, kind, operator, text) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [
                    entry.incident, UsernameRule.key(walker), entry.at, entry.kind.rawValue, entry.operator, entry.text,
                ])
            if entry.kind == .handover {
                try db.execute(
                    sql: "UPDATE desk_incidents SET assignee = ? WHERE incident = ?",
                    arguments: [entry.assignee, entry.incident])
            }
        }
    }

    public func log(ofIncident incident: String) async throws -> [DeskLogEntry] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM desk_log WHERE incident = ? ORDER BY at, rowid", arguments: [incident]
            )
            .compactMap(DeskLogEntry.init(row:))
        }
    }

    /// Keeps an incident's times as the desk saw them: opened, first acknowledged, closed (the
    /// earliest of each wins, so a repeat or a late message never moves them).
    public func noteIncident(_ times: DeskIncidentTimes) async throws {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO desk_incidents (incident, walker_key, opened_at, first_ack_at, closed_at)
                    VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(incident) DO UPDATE SET
                        first_ack_at = COALESCE(desk_incidents.first_ack_at, excluded.first_ack_at),
                        closed_at = COALESCE(desk_incidents.closed_at, excluded.closed_at)
                    """,
                arguments: [
                    times.incident, UsernameRule.key(times.walker), times.openedAt, times.firstAckAt, times.closedAt,
                ])
        }
    }

    /// Assignees of incidents, by incident.
    public func assignees(_ incidents: [String]) async throws -> [String: String] {
        guard !incidents.isEmpty else { return [:] }
        return try await read { db in
            let marks = Array(repeating: "?", count: incidents.count).joined(separator: ",")
            let rows = try Row.fetchAll(
                db,
                sql:
                    "SELECT incident, assignee FROM desk_incidents WHERE assignee IS NOT NULL AND incident IN (\(marks))",
                arguments: StatementArguments(incidents))
            return Dictionary(rows.map { ($0["incident"], $0["assignee"]) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// Seconds from open to first acknowledgement and to close, of the last `limit` incidents closed.
    public func deskDurations(limit: Int = 1_000) async throws -> (ack: [Double], close: [Double]) {
        try await read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT opened_at, first_ack_at, closed_at FROM desk_incidents WHERE closed_at IS NOT NULL
                    ORDER BY closed_at DESC LIMIT ?
                    """, arguments: [limit])
            var ack: [Double] = []
            var close: [Double] = []
            for row in rows {
                let opened: Double = row["opened_at"]
                if let acked: Double = row["first_ack_at"] { ack.append(max(0, acked - opened)) }
                if let closed: Double = row["closed_at"] { close.append(max(0, closed - opened)) }
            }
            return (ack, close)
        }
    }

    /// The desk's rows about a walker, in an erasure's last step.
    static func forgetDesk(_ db: Database, walkerKey: String) throws {
        for table in ["desk_views", "desk_log", "desk_incidents"] {
            try db.execute(sql: "DELETE FROM \(table) WHERE walker_key = ?", arguments: [walkerKey])
        }
    }
}
