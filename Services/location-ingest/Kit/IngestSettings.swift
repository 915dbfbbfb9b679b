import SafeWalkCore
import SafeWalkService

/// location-ingest's own settings, on top of the shared ``ServiceConfiguration``.
public struct IngestSettings: Sendable, Hashable {
    /// Size limit and `tst` window for incoming fixes.
    public var policy: FixPolicy
    /// The shared movement rule (threshold from `SAFEWALK_MOVEMENT_METERS`).
    public var movement: MovementRule
    /// How long history is kept, in seconds (by the fix's own `tst`). A track is personal data:
    /// by default it is kept only as long as a walk plausibly matters (24 hours).
    public var retention: Double
    /// How often old history is pruned, in seconds.
    public var pruneInterval: Double
    /// The shortest time between two rounds of retained position publishes, in seconds: under
    /// load a walker's fixes within it become one position (the newest; movement kept).
    public var positionInterval: Double
    /// `SAFEWALK_PARTITIONS` / `SAFEWALK_PARTITION` (``ServiceConfiguration/partition``):
    /// which of N ingests this is, on a cluster whose nodes route each walker's fixes (ours and
    /// OwnTracks') to one of N partitions; nil for the one ingest.
    public var partition: WalkerPartition?

    public static let defaultPositionInterval = 0.5

    /// 24 hours: a privacy choice (issue 16). `SAFEWALK_HISTORY_RETENTION` changes it.
    public static let defaultRetention: Double = 24 * 3600

    public init(
        policy: FixPolicy = FixPolicy(), movement: MovementRule = MovementRule(),
        retention: Double = IngestSettings.defaultRetention, pruneInterval: Double = 3600,
        positionInterval: Double = IngestSettings.defaultPositionInterval, partition: WalkerPartition? = nil
    ) {
        self.policy = policy
        self.movement = movement
        self.retention = retention
        self.pruneInterval = pruneInterval
        self.positionInterval = positionInterval
        self.partition = partition
    }

    /// Reads `SAFEWALK_FIX_MAX_BYTES`, `SAFEWALK_FIX_MAX_AGE`, `SAFEWALK_FIX_MAX_FUTURE`,
    /// `SAFEWALK_HISTORY_RETENTION`, `SAFEWALK_HISTORY_PRUNE_INTERVAL`, `SAFEWALK_POSITION_INTERVAL`
    /// and the partition.
    public init(configuration: ServiceConfiguration) throws(ConfigurationError) {
        let env = configuration.environment
        let defaults = FixPolicy()
        self.init(
            policy: FixPolicy(
                maxBytes: try env.integer("SAFEWALK_FIX_MAX_BYTES", default: defaults.maxBytes, in: 128...1_048_576),
                maxAge: try env.seconds("SAFEWALK_FIX_MAX_AGE", default: defaults.maxAge),
                maxFutureSkew: try env.seconds("SAFEWALK_FIX_MAX_FUTURE", default: defaults.maxFutureSkew)),
            movement: configuration.thresholds.movementRule,
            retention: try env.seconds("SAFEWALK_HISTORY_RETENTION", default: Self.defaultRetention),
            pruneInterval: try env.seconds("SAFEWALK_HISTORY_PRUNE_INTERVAL", default: 3600),
            positionInterval: try env.seconds("SAFEWALK_POSITION_INTERVAL", default: Self.defaultPositionInterval),
            partition: configuration.partition)
    }
}
