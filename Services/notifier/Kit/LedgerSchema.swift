import GRDB

extension DeliveryLedger {
    /// `notifier.sqlite`'s schema, applied at start-up.
    public static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE escalation (
                        id TEXT PRIMARY KEY NOT NULL,
                        walker TEXT NOT NULL,
                        event BLOB NOT NULL,
                        plan BLOB NOT NULL,
                        receivedAt REAL NOT NULL,
                        done INTEGER NOT NULL DEFAULT 0
                    );
                    CREATE INDEX escalation_open ON escalation(done, receivedAt);
                    CREATE TABLE delivery (
                        escalationId TEXT NOT NULL REFERENCES escalation(id),
                        channel TEXT NOT NULL,
                        targetKey TEXT NOT NULL,
                        display TEXT NOT NULL,
                        address TEXT,
                        refusal TEXT,
                        state TEXT NOT NULL,
                        attempts INTEGER NOT NULL,
                        reason TEXT,
                        receipted INTEGER NOT NULL,
                        updatedAt REAL NOT NULL,
                        PRIMARY KEY (escalationId, channel, targetKey)
                    );
                    """)
        }
        registerLadder(&migrator)
        return migrator
    }
}
