import Foundation
import GRDB

/// Reads location-ingest's own SQLite file (another process's; WAL allows a concurrent reader):
/// how many fixes it has stored, in total and per walker.
enum IngestDatabase {
    static func open(_ directory: URL) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        return try DatabaseQueue(
            path: directory.appendingPathComponent("location-ingest.sqlite").path,
            configuration: configuration)
    }

    static func count(_ directory: URL) -> Int {
        (try? open(directory).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM fix") }) ?? -1
    }

    static func perWalker(_ directory: URL) -> [String: Int] {
        let rows =
            (try? open(directory).read {
                try Row.fetchAll($0, sql: "SELECT walker, COUNT(*) AS n FROM fix GROUP BY walker")
            }) ?? []
        var result: [String: Int] = [:]
        for row in rows { result[row["walker"]] = row["n"] }
        return result
    }
}
