import GRDB

extension DeliveryLedger {
    /// The ladder's tables, beside the ledger's in `notifier.sqlite` so that a ladder step and the
    /// jobs it admits commit in one transaction.
    static func registerLadder(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v2-ladder") { db in
            try db.execute(
                sql: """
                    CREATE TABLE ladder (
                        incident TEXT PRIMARY KEY NOT NULL,
                        walker TEXT NOT NULL,
                        record BLOB NOT NULL,
                        open INTEGER NOT NULL,
                        deadline REAL,
                        code TEXT NOT NULL,
                        revision INTEGER NOT NULL,
                        updatedAt REAL NOT NULL
                    );
                    CREATE INDEX ladder_due ON ladder(open, deadline);
                    CREATE INDEX ladder_walker ON ladder(walker, updatedAt);
                    CREATE TABLE ladder_recipient (
                        incident TEXT NOT NULL REFERENCES ladder(incident),
                        key TEXT NOT NULL,
                        position INTEGER NOT NULL,
                        name TEXT NOT NULL,
                        tier INTEGER NOT NULL,
                        channel TEXT NOT NULL,
                        address TEXT,
                        token TEXT NOT NULL,
                        digest TEXT NOT NULL,
                        toldAt REAL,
                        receipt TEXT,
                        ref TEXT,
                        fallbacks INTEGER NOT NULL DEFAULT 0,
                        PRIMARY KEY (incident, key)
                    );
                    CREATE INDEX ladder_recipient_digest ON ladder_recipient(digest);
                    CREATE INDEX ladder_recipient_address ON ladder_recipient(address);
                    -- One row per text sent, so a gateway receipt's ref names one person of one incident.
                    CREATE TABLE ladder_text (
                        ref TEXT PRIMARY KEY NOT NULL,
                        incident TEXT NOT NULL,
                        key TEXT NOT NULL,
                        job TEXT NOT NULL,
                        status TEXT
                    );
                    -- An incident closed before its escalation arrived: told, then all-cleared at once.
                    CREATE TABLE ladder_tombstone (
                        incident TEXT PRIMARY KEY NOT NULL,
                        walker TEXT NOT NULL,
                        closedAt REAL NOT NULL
                    );
                    """)
        }
        // A desk's close may come before the escalation too: its all-clear still says who and why.
        migrator.registerMigration("v3-ladder-tombstone-closer") { db in
            try db.execute(
                sql: """
                    ALTER TABLE ladder_tombstone ADD COLUMN closedBy TEXT;
                    ALTER TABLE ladder_tombstone ADD COLUMN closeReason TEXT;
                    """)
        }
    }
}
