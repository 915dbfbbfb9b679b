import ArgumentParser
import SafeWalkCore

/// `safewalk nats-mappings`: the subject mappings that route each walker's inputs to one of N
/// watchdogs (``WatchdogPartition/natsMappings(count:prefix:)``), for every node's configuration.
struct NATSMappingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nats-mappings",
        abstract: "Print the NATS subject mappings that partition the walkers over N watchdogs.",
        discussion: """
            Every node of the cluster includes the same block. Start N watchdogs with \
            SAFEWALK_WATCHDOG_PARTITIONS=N and SAFEWALK_WATCHDOG_PARTITION=0..N-1, each with its \
            own data directory and client id. Changing N moves walkers between partitions: stop \
            every watchdog first (docs/SCALING.md, "Changing N").
            """)

    @Option(help: "How many watchdogs share the walkers (2 to \(WatchdogPartition.maxCount)).")
    var watchdogs: Int

    @Option(help: "The topic prefix (SAFEWALK_TOPIC_PREFIX).")
    var prefix = Topic.defaultPrefix

    func validate() throws {
        guard WatchdogPartition(index: 0, count: watchdogs) != nil else {
            throw ValidationError(
                "--watchdogs must be 2 to \(WatchdogPartition.maxCount); one watchdog needs no mapping")
        }
        guard Topic.isValidPrefix(prefix), !prefix.contains(".") else {
            throw ValidationError("--prefix must be a valid topic prefix without a `.` (NATS reads it as a level)")
        }
    }

    func run() {
        print(WatchdogPartition.natsMappings(count: watchdogs, prefix: prefix), terminator: "")
    }
}
