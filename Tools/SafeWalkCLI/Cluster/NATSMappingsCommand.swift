import ArgumentParser
import SafeWalkCore

/// `safewalk nats-mappings`: the subject mappings that route each walker's inputs to one of N
/// partitions (``WalkerPartition/natsMappings(count:prefix:)``), for every node's configuration.
struct NATSMappingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nats-mappings",
        abstract: "Print the NATS subject mappings that partition the walkers N ways.",
        discussion: """
            Every node of the cluster includes the same block. Start N watchdogs, N \
            companion-chats and N location-ingests with SAFEWALK_PARTITIONS=N and \
            SAFEWALK_PARTITION=0..N-1, each with its own data directory and client id. Changing N moves walkers between \
            partitions: stop every partitioned instance first (docs/SCALING.md, "Changing N").
            """)

    @Option(help: "How many partitions share the walkers (2 to \(WalkerPartition.maxCount)).")
    var partitions: Int

    @Option(help: "The topic prefix (SAFEWALK_TOPIC_PREFIX).")
    var prefix = Topic.defaultPrefix

    func validate() throws {
        guard WalkerPartition(index: 0, count: partitions) != nil else {
            throw ValidationError(
                "--partitions must be 2 to \(WalkerPartition.maxCount); one partition needs no mapping")
        }
        guard Topic.isValidPrefix(prefix), !prefix.contains(".") else {
            throw ValidationError("--prefix must be a valid topic prefix without a `.` (NATS reads it as a level)")
        }
    }

    func run() {
        print(WalkerPartition.natsMappings(count: partitions, prefix: prefix), terminator: "")
    }
}
