import SafeWalkCore
import SafeWalkService

/// companion-chat's own settings, read from the environment beside the shared ones.
public struct CompanionChatSettings: Sendable {
    public var gemini: GeminiConfiguration
    /// `SAFEWALK_CHAT_HISTORY_TURNS` (default 12): lines of conversation sent to the model.
    public var historyTurns: Int
    /// `SAFEWALK_CHAT_QUEUE_LIMIT` (default 32): events a walker may have waiting; more are rejected.
    public var queueLimit: Int
    /// `SAFEWALK_CHAT_MAX_WALKERS` (default 10000): conversations remembered before idle ones are forgotten.
    public var maxWalkers: Int
    public var limits: ChatIntake.Limits
    /// `SAFEWALK_PARTITIONS` / `SAFEWALK_PARTITION` (``ServiceConfiguration/partition``):
    /// which of N companions this is, on a cluster whose nodes route each walker's prompts and
    /// replies to one of N partitions; nil for the one companion.
    public var partition: WalkerPartition?

    public init(
        gemini: GeminiConfiguration, historyTurns: Int = 12, queueLimit: Int = 32,
        maxWalkers: Int = 10_000, limits: ChatIntake.Limits = .init(), partition: WalkerPartition? = nil
    ) {
        self.gemini = gemini
        self.historyTurns = historyTurns
        self.queueLimit = queueLimit
        self.maxWalkers = maxWalkers
        self.limits = limits
        self.partition = partition
    }

    /// `partition` is the configuration's (``ServiceConfiguration/partition``), which reads and
    /// checks it once for every service.
    public init(environment env: EnvironmentReader, partition: WalkerPartition? = nil) throws(ConfigurationError) {
        self.init(
            gemini: try GeminiConfiguration(environment: env),
            historyTurns: try env.integer("SAFEWALK_CHAT_HISTORY_TURNS", default: 12, in: 1...100),
            queueLimit: try env.integer("SAFEWALK_CHAT_QUEUE_LIMIT", default: 32, in: 1...10_000),
            maxWalkers: try env.integer("SAFEWALK_CHAT_MAX_WALKERS", default: 10_000, in: 1...10_000_000),
            partition: partition)
    }
}
