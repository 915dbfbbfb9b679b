import SafeWalkCore

extension EnvironmentReader {
    /// `SAFEWALK_PARTITIONS` (default 1) and `SAFEWALK_PARTITION` (required when there are more):
    /// which of N partitions of the walkers this instance serves, on a cluster whose nodes route
    /// each walker's partitioned topics to one of N (`safewalk nats-mappings`; docs/SCALING.md).
    /// nil for one partition. Of several, the index is required: an instance that guessed it would
    /// serve walkers routed to another, and leave its own unread.
    public func walkerPartition() throws(ConfigurationError) -> WalkerPartition? {
        let count = try integer("SAFEWALK_PARTITIONS", default: 1, in: 1...WalkerPartition.maxCount)
        guard count > 1 else {
            if let index = string("SAFEWALK_PARTITION"), index != "0" {
                throw .invalid(
                    name: "SAFEWALK_PARTITION", value: index, expected: "0 or unset while SAFEWALK_PARTITIONS is 1")
            }
            return nil
        }
        guard string("SAFEWALK_PARTITION") != nil else {
            throw .missing(
                name: "SAFEWALK_PARTITION",
                why: "SAFEWALK_PARTITIONS is \(count): this instance's partition, 0 to \(count - 1)")
        }
        let index = try integer("SAFEWALK_PARTITION", default: 0, in: 0...(count - 1))
        return WalkerPartition(index: index, count: count)
    }
}
