import Foundation
import GRDB
import SafeWalkCore

/// The circle's half of contacts-store's SQLite file. Each decision's mutations are written in
/// one transaction, with the command's answer, so a repeated command id finds its answer and
/// applies nothing twice, and a crash leaves either all of a change or none of it.
final class CircleStore: Sendable {
    let pool: DatabasePool
    let settings: CircleSettings

    init(pool: DatabasePool, settings: CircleSettings) {
        self.pool = pool
        self.settings = settings
    }

    /// An inbox event saved and not yet known to be published.
    struct Pending: Hashable, Sendable {
        var user: WalkerID
        var event: InboxEvent
    }

    // MARK: Start-up

    func loadGraph() async throws -> CircleGraph {
        try await pool.read { db in
            var graph = CircleGraph()
            func walker(_ row: Row, _ column: String) -> WalkerID? { WalkerID(validating: row[column]) }
            for row in try Row.fetchAll(db, sql: "SELECT user, since FROM circle_member") {
                if let user = walker(row, "user") { graph.apply(.addMember(user, since: row["since"])) }
            }
            for row in try Row.fetchAll(db, sql: "SELECT follower, followee, sos, since FROM circle_follow") {
                guard let follower = walker(row, "follower"), let followee = walker(row, "followee") else { continue }
                graph.apply(.follow(follower: follower, followee: followee, since: row["since"]))
                graph.apply(.setSOS(follower: follower, followee: followee, row["sos"]))
            }
            for row in try Row.fetchAll(db, sql: "SELECT requester, target, at FROM circle_request") {
                guard let from = walker(row, "requester"), let to = walker(row, "target") else { continue }
                graph.apply(.request(from: from, to: to, at: row["at"]))
            }
            for row in try Row.fetchAll(db, sql: "SELECT asker, asked, at, revealed FROM circle_checkin_request") {
                guard let asker = walker(row, "asker"), let asked = walker(row, "asked") else { continue }
                graph.apply(.askCheckIn(asker: asker, asked: asked, at: row["at"]))
                if row["revealed"] as Bool { graph.apply(.markRevealed(asker: asker, asked: asked)) }
            }
            for row in try Row.fetchAll(db, sql: "SELECT user, at FROM circle_checked_in") {
                if let user = walker(row, "user") { graph.apply(.checkedIn(user, at: row["at"])) }
            }
            for row in try Row.fetchAll(db, sql: "SELECT user, at, until FROM circle_home_safe") {
                if let user = walker(row, "user") {
                    graph.apply(.homeSafe(user, HomeSafe(at: row["at"], until: row["until"])))
                }
            }
            for row in try Row.fetchAll(db, sql: "SELECT user FROM circle_reveal") {
                if let user = walker(row, "user") { graph.apply(.reveal(user, true)) }
            }
            for row in try Row.fetchAll(db, sql: "SELECT walker, viewer, incident FROM circle_shown") {
                guard let shown = walker(row, "walker"), let viewer = walker(row, "viewer") else { continue }
                graph.apply(.show(walker: shown, viewer: viewer, incident: row["incident"]))
            }
            return graph
        }
    }

    // MARK: Commands

    /// The answer already given to `id` from `user`, if any.
    func answer(to id: String, from user: WalkerID) async throws -> CircleResult? {
        let data = try await pool.read { db in
            try Data.fetchOne(
                db, sql: "SELECT result FROM circle_command WHERE user = ? AND id = ?", arguments: [user.rawValue, id])
        }
        return try data.map { try SafeWalkJSON.decode(CircleResult.self, from: $0) }
    }

    /// Writes `mutations` (and the command's answer) in one transaction; returns the inbox events
    /// that are new (an event whose id the inbox holds already is not delivered again).
    func commit(
        _ mutations: [CircleMutation], answer: (user: WalkerID, result: CircleResult)? = nil, now: EpochSeconds
    ) async throws -> [Pending] {
        let encoded = try mutations.map { mutation -> (CircleMutation, Data?) in
            if case .deliver(_, let event) = mutation { return (mutation, try SafeWalkJSON.encode(event)) }
            return (mutation, nil)
        }
        let answerData = try answer.map { try SafeWalkJSON.encode($0.result) }
        let settings = settings
        // In its own task: a write must finish even when the caller is cancelled at shutdown.
        return try await Task { [pool] in
            try await pool.write { db in
                var fresh: [Pending] = []
                for (mutation, data) in encoded {
                    if let pending = try Self.write(mutation, eventData: data, db: db, settings: settings, now: now) {
                        fresh.append(pending)
                    }
                }
                if let answer, let answerData, let id = answer.result.id {
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO circle_command (user, id, at, result) VALUES (?, ?, ?, ?)",
                        arguments: [answer.user.rawValue, id, now, answerData])
                    // A device repeats a command within seconds; a day of answers is plenty.
                    try db.execute(
                        sql: "DELETE FROM circle_command WHERE at < ?", arguments: [now - Self.answersKeptFor])
                }
                return fresh
            }
        }.value
    }

    // MARK: Inbox

    /// `user`'s kept events, oldest first.
    func inbox(of user: WalkerID, now: EpochSeconds) async throws -> [InboxEvent] {
        let keepFrom = now - settings.inboxKeep
        let rows = try await pool.read { db in
            try Data.fetchAll(
                db, sql: "SELECT event FROM circle_inbox WHERE user = ? AND at >= ? ORDER BY seq",
                arguments: [user.rawValue, keepFrom])
        }
        return rows.compactMap { try? SafeWalkJSON.decode(InboxEvent.self, from: $0) }
    }

    /// Events saved but not known to be published (a crash or a broker outage in between).
    func unsent(limit: Int = 1000) async throws -> [Pending] {
        try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT user, event FROM circle_inbox WHERE sent = 0 ORDER BY seq LIMIT ?", arguments: [limit]
            )
            .compactMap { row in
                guard let user = WalkerID(validating: row["user"]),
                    let event = try? SafeWalkJSON.decode(InboxEvent.self, from: row["event"] as Data)
                else { return nil }
                return Pending(user: user, event: event)
            }
        }
    }

    func markSent(_ events: [Pending]) async throws {
        guard !events.isEmpty else { return }
        try await Task { [pool] in
            try await pool.write { db in
                for pending in events {
                    try db.execute(
                        sql: "UPDATE circle_inbox SET sent = 1 WHERE user = ? AND id = ?",
                        arguments: [pending.user.rawValue, pending.event.id])
                }
            }
        }.value
    }

    /// How long a command's answer is kept for a repeat of its id.
    static let answersKeptFor: Double = 86_400

    // MARK: One mutation

    private static func write(
        _ mutation: CircleMutation, eventData: Data?, db: Database, settings: CircleSettings, now: EpochSeconds
    ) throws -> Pending? {
        switch mutation {
        case .addMember(let user, let since):
            try db.execute(
                sql: "INSERT OR IGNORE INTO circle_member (user, since) VALUES (?, ?)",
                arguments: [user.rawValue, since])
        case .removeMember(let user):
            try db.execute(sql: "DELETE FROM circle_member WHERE user = ?", arguments: [user.rawValue])
        case .follow(let follower, let followee, let since):
            try db.execute(
                sql: "INSERT OR REPLACE INTO circle_follow (follower, followee, sos, since) VALUES (?, ?, 0, ?)",
                arguments: [follower.rawValue, followee.rawValue, since])
        case .unfollow(let follower, let followee):
            try db.execute(
                sql: "DELETE FROM circle_follow WHERE follower = ? AND followee = ?",
                arguments: [follower.rawValue, followee.rawValue])
        case .setSOS(let follower, let followee, let sos):
            try db.execute(
                sql: "UPDATE circle_follow SET sos = ? WHERE follower = ? AND followee = ?",
                arguments: [sos, follower.rawValue, followee.rawValue])
        case .request(let from, let to, let at):
            try db.execute(
                sql: "INSERT OR REPLACE INTO circle_request (requester, target, at) VALUES (?, ?, ?)",
                arguments: [from.rawValue, to.rawValue, at])
        case .dropRequest(let from, let to):
            try db.execute(
                sql: "DELETE FROM circle_request WHERE requester = ? AND target = ?",
                arguments: [from.rawValue, to.rawValue])
        case .askCheckIn(let asker, let asked, let at):
            try db.execute(
                sql: "INSERT OR REPLACE INTO circle_checkin_request (asker, asked, at, revealed) VALUES (?, ?, ?, 0)",
                arguments: [asker.rawValue, asked.rawValue, at])
        case .dropCheckIn(let asker, let asked):
            try db.execute(
                sql: "DELETE FROM circle_checkin_request WHERE asker = ? AND asked = ?",
                arguments: [asker.rawValue, asked.rawValue])
        case .markRevealed(let asker, let asked):
            try db.execute(
                sql: "UPDATE circle_checkin_request SET revealed = 1 WHERE asker = ? AND asked = ?",
                arguments: [asker.rawValue, asked.rawValue])
        case .checkedIn(let user, let at):
            try db.execute(
                sql: "INSERT OR REPLACE INTO circle_checked_in (user, at) VALUES (?, ?)",
                arguments: [user.rawValue, at])
        case .homeSafe(let user, let home):
            if let home {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO circle_home_safe (user, at, until) VALUES (?, ?, ?)",
                    arguments: [user.rawValue, home.at, home.until])
            } else {
                try db.execute(sql: "DELETE FROM circle_home_safe WHERE user = ?", arguments: [user.rawValue])
            }
        case .reveal(let user, let on):
            try db.execute(
                sql: on
                    ? "INSERT OR IGNORE INTO circle_reveal (user) VALUES (?)"
                    : "DELETE FROM circle_reveal WHERE user = ?",
                arguments: [user.rawValue])
        case .show(let walker, let viewer, let incident):
            try db.execute(
                sql: "INSERT OR REPLACE INTO circle_shown (walker, viewer, incident) VALUES (?, ?, ?)",
                arguments: [walker.rawValue, viewer.rawValue, incident])
        case .hide(let walker, let viewer):
            try db.execute(
                sql: "DELETE FROM circle_shown WHERE walker = ? AND viewer = ?",
                arguments: [walker.rawValue, viewer.rawValue])
        case .deliver(let user, let event):
            try db.execute(
                sql: "INSERT OR IGNORE INTO circle_inbox (user, id, at, event) VALUES (?, ?, ?, ?)",
                arguments: [user.rawValue, event.id, event.at, eventData])
            guard db.changesCount > 0 else { return nil }
            try trimInbox(of: user, db: db, settings: settings, now: now)
            return Pending(user: user, event: event)
        case .erase(let user):
            let name = user.rawValue
            for sql in [
                "DELETE FROM circle_member WHERE user = ?1",
                "DELETE FROM circle_follow WHERE follower = ?1 OR followee = ?1",
                "DELETE FROM circle_request WHERE requester = ?1 OR target = ?1",
                "DELETE FROM circle_checkin_request WHERE asker = ?1 OR asked = ?1",
                "DELETE FROM circle_checked_in WHERE user = ?1",
                "DELETE FROM circle_home_safe WHERE user = ?1",
                "DELETE FROM circle_reveal WHERE user = ?1",
                "DELETE FROM circle_shown WHERE walker = ?1 OR viewer = ?1",
                "DELETE FROM circle_inbox WHERE user = ?1",
                "DELETE FROM circle_command WHERE user = ?1",
            ] {
                try db.execute(sql: sql, arguments: [name])
            }
        }
        return nil
    }

    /// Bounded and expiring: the newest `inboxLimit` events younger than `inboxKeep`.
    private static func trimInbox(of user: WalkerID, db: Database, settings: CircleSettings, now: EpochSeconds) throws {
        try db.execute(
            sql: """
                DELETE FROM circle_inbox WHERE user = ?1 AND (at < ?2 OR seq NOT IN (
                    SELECT seq FROM circle_inbox WHERE user = ?1 ORDER BY seq DESC LIMIT ?3))
                """,
            arguments: [user.rawValue, now - settings.inboxKeep, settings.inboxLimit])
    }
}
