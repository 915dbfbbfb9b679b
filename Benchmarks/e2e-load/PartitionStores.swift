import Foundation
import GRDB
import SafeWalkCore

/// After a partitioned run: each partition's own SQLite file (read only) must hold only walkers
/// the engine routes to it (``WalkerPartition/of(_:count:)``), and no walker may be in two, or a
/// walker was watched (or its fixes stored) twice. Pure over what the files hold.
enum PartitionStores {
    /// What a partitioned service's file says about walkers: the file, and a query of its walkers.
    struct Store {
        var file: String
        var walkers: String

        /// The watchdog's watches.
        static let watches = Store(file: "watchdog.sqlite", walkers: "SELECT walker FROM watch")
        /// The notifier's ledger: the walkers it admitted escalations of.
        static let escalations = Store(file: "notifier.sqlite", walkers: "SELECT DISTINCT walker FROM escalation")
        /// location-ingest's stored fixes, compacted or still in its log (``IngestDatabase/stored``).
        static let fixes = Store(
            file: "location-ingest.sqlite", walkers: "SELECT DISTINCT walker FROM (\(IngestDatabase.stored))")
    }

    /// Each partition's walkers, partition 0 first; nil for a file that could not be read.
    static func walkers(in directories: [URL], _ store: Store) -> [[String]?] {
        directories.map { directory in
            try? DatabaseQueue.readOnly(directory.appendingPathComponent(store.file)).read {
                try String.fetchAll($0, sql: store.walkers)
            }
        }
    }

    /// What is wrong with the partitions' stores, one line each; empty when each partition holds
    /// only its own walkers and at least one.
    static func problems(_ stores: [[String]?]) -> [String] {
        var problems: [String] = []
        var seen: [String: Int] = [:]
        for (index, store) in stores.enumerated() {
            guard let store else {
                problems.append("partition \(index)'s store could not be read")
                continue
            }
            if store.isEmpty { problems.append("partition \(index) holds no walker: nothing was routed to it") }
            let foreign = store.filter { id in
                WalkerID(validating: id).map { WalkerPartition.of($0, count: stores.count) != index } ?? true
            }
            if !foreign.isEmpty {
                problems.append(
                    "partition \(index) holds \(foreign.count) walkers of other partitions (\(foreign.prefix(3)))")
            }
            for walker in store {
                if let other = seen[walker] {
                    problems.append("\(walker) is in partitions \(other) and \(index)")
                }
                seen[walker] = index
            }
        }
        return problems
    }
}
