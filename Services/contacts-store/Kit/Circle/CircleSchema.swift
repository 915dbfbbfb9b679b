import GRDB

/// The circle's tables in contacts-store's SQLite file (migration `v3-circle`).
enum CircleSchema {
    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE circle_member (user TEXT PRIMARY KEY, since REAL NOT NULL);
                CREATE TABLE circle_follow (
                    follower TEXT NOT NULL, followee TEXT NOT NULL, sos INTEGER NOT NULL DEFAULT 0,
                    since REAL NOT NULL, PRIMARY KEY (follower, followee));
                CREATE INDEX circle_follow_followee ON circle_follow (followee);
                CREATE TABLE circle_request (
                    requester TEXT NOT NULL, target TEXT NOT NULL, at REAL NOT NULL,
                    PRIMARY KEY (requester, target));
                CREATE TABLE circle_checkin_request (
                    asker TEXT NOT NULL, asked TEXT NOT NULL, at REAL NOT NULL, revealed INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (asker, asked));
                CREATE TABLE circle_checked_in (user TEXT PRIMARY KEY, at REAL NOT NULL);
                CREATE TABLE circle_home_safe (user TEXT PRIMARY KEY, at REAL NOT NULL, until REAL NOT NULL);
                CREATE TABLE circle_reveal (user TEXT PRIMARY KEY);
                CREATE TABLE circle_shown (
                    walker TEXT NOT NULL, viewer TEXT NOT NULL, incident TEXT NOT NULL,
                    PRIMARY KEY (walker, viewer));
                CREATE TABLE circle_inbox (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT, user TEXT NOT NULL, id TEXT NOT NULL,
                    at REAL NOT NULL, event BLOB NOT NULL, sent INTEGER NOT NULL DEFAULT 0,
                    UNIQUE (user, id));
                CREATE INDEX circle_inbox_unsent ON circle_inbox (sent) WHERE sent = 0;
                CREATE TABLE circle_command (
                    user TEXT NOT NULL, id TEXT NOT NULL, at REAL NOT NULL, result BLOB NOT NULL,
                    PRIMARY KEY (user, id));
                CREATE INDEX circle_command_at ON circle_command (at);
                """)
    }
}
