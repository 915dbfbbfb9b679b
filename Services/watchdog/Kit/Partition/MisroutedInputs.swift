import Logging
import Metrics
import SafeWalkCore

/// Inputs the engine routed to this watchdog for walkers ``WalkerPartition/of(_:count:)``
/// gives to another: the engine's mapping and `SAFEWALK_PARTITIONS` disagree on N.
///
/// Such an input is still handled here, since the engine sends it nowhere else, and dropping it
/// could lose a cry for help. But the desk's closes and erasures of that walker would be answered
/// by the instance the function names, which does not hold the watch, so every one is counted
/// and the first of each walker logged at `error`, for the operator to set N right.
struct MisroutedInputs {
    private var walkers: Set<WalkerID> = []
    private let counter = Counter(label: "safewalk_watchdog_misrouted_inputs_total")

    /// At most this many walkers are remembered, so a wrong N costs bounded memory.
    static let rememberedWalkers = 1_000

    mutating func note(_ walker: WalkerID, partition: WalkerPartition?, logger: Logger) {
        counter.increment()
        guard let partition, walkers.count < Self.rememberedWalkers, walkers.insert(walker).inserted else { return }
        logger.error(
            "an input for another partition's walker: the engine's mapping and SAFEWALK_PARTITIONS disagree",
            metadata: [
                "walker": "\(walker)", "partition": "\(partition)",
                "owner": "\(WalkerPartition.of(walker, count: partition.count))",
            ])
    }
}
