import GRDB
import GRDBSQLite

/// Runs the prepared `fix_log` insert for one history row, binding its nine values straight
/// into SQLite. GRDB's generic arguments box every value first, which cost as much as the
/// append itself on ingest's hottest path (ingest benchmark, SQLite stage); everything else
/// in the store goes through GRDB as usual.
enum HistoryRowBinder {
    static func append(_ row: HistoryRow, with statement: Statement, in db: Database) throws {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        let f = row.fix
        var code = row.walker.rawValue.withCString { sqlite3_bind_text(handle, 1, $0, -1, transient) }
        let values = [f.tst, f.lat, f.lon, f.acc, f.alt, f.vel, f.batt, row.receivedAt]
        for (index, value) in values.enumerated() where code == SQLITE_OK {
            let position = Int32(index + 2)
            code =
                if let value { sqlite3_bind_double(handle, position, value) } else {
                    sqlite3_bind_null(handle, position)
                }
        }
        if code == SQLITE_OK { code = sqlite3_step(handle) }
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: statement.sql)
        }
    }

    /// SQLite copies the text before `bind` returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
