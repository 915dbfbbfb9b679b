import GRDB
import GRDBSQLite

/// One row of a stepped statement, read straight from SQLite by column index. Restoring a
/// million watches reads 42 columns of each; GRDB's `Row` subscripts box and dispatch every value
/// first, which cost as much as the rest of the restore (watchdog benchmark, restore). Everything
/// else in the store goes through GRDB as usual.
struct WatchColumns {
    let handle: SQLiteStatement

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func double(_ column: Int32) -> Double? { isNull(column) ? nil : sqlite3_column_double(handle, column) }

    func int(_ column: Int32) -> Int? { isNull(column) ? nil : Int(sqlite3_column_int64(handle, column)) }

    func bool(_ column: Int32) -> Bool? { int(column).map { $0 != 0 } }

    func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The column's bytes (text or blob; empty when NULL), valid only inside `body`.
    func withBytes<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        // The pointer first, then its length: SQLite's documented order.
        let start = sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let start else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return body(UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: count))
    }

    func bytes(_ column: Int32) -> [UInt8]? {
        guard !isNull(column) else { return nil }
        return withBytes(column) { Array($0) }
    }

    /// Steps `statement` to its end, handing each row to `body`.
    static func forEachRow(of statement: Statement, in db: Database, _ body: (WatchColumns) -> Void) throws {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        defer { sqlite3_reset(handle) }
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: statement.sql)
            }
            body(WatchColumns(handle: handle))
        }
    }
}
