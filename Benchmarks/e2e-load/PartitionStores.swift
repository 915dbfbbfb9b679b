import Foundation
import GRDB
import SafeWalkCore

/// After a run with several watchdogs: each partition's own SQLite file (`watch`, read only) must
/// hold only walkers the engine routes to it (``WalkerPartition/of(_:count:)``) and no walker
/// may be in two, or a walker was watched twice. Pure over what the files hold.
enum PartitionStores {
    /// Each partition's walkers, partition 0 first; nil for a file that could not be read.
    static func walkers(in directories: [URL]) -> [[String]?] {
        directories.map { directory in
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(5)
            return try? DatabaseQueue(
                path: directory.appendingPathComponent("watchdog.sqlite").path, configuration: configuration
            ).read { try String.fetchAll($0, sql: "SELECT walker FROM watch") }
        }
    }

    /// What is wrong with the partitions' stores, one line each; empty when each partition holds
    /// only its own walkers and at least one.
    static func problems(_ stores: [[String]?]) -> [String] {
        var problems: [String] = []
        var seen: [String: Int] = [:]
        for (index, store) in stores.enumerated() {
            guard let store else {
                problems.append("watchdog \(index)'s store could not be read")
                continue
            }
            if store.isEmpty { problems.append("watchdog \(index) holds no watch: nothing was routed to it") }
            let foreign = store.filter { id in
                WalkerID(validating: id).map { WalkerPartition.of($0, count: stores.count) != index } ?? true
            }
            if !foreign.isEmpty {
                problems.append(
                    "watchdog \(index) holds \(foreign.count) walkers of other partitions (\(foreign.prefix(3)))")
            }
            for walker in store {
                if let other = seen[walker] {
                    problems.append("\(walker) is watched by watchdogs \(other) and \(index)")
                }
                seen[walker] = index
            }
        }
        return problems
    }
}
