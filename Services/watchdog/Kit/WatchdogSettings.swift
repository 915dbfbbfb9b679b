import SafeWalkCore
import SafeWalkService

/// The watchdog's own settings, beyond the shared ones in ``ServiceConfiguration``.
public struct WatchdogSettings: Sendable {
    /// `SAFEWALK_WATCHDOG_MAX_PAYLOAD` (bytes, default 16384): larger inputs are rejected unread.
    public var maxPayloadBytes: Int
    /// `SAFEWALK_WATCHDOG_DB_FILE` (default `watchdog.sqlite`) inside `SAFEWALK_DATA_DIR`.
    public var databaseFile: String
    /// `SAFEWALK_WALK_STALL_AFTER` (seconds, default 300): a walk with `to` whose walker has not
    /// got closer for this long gets an early check-in.
    public var walkStallAfter: Double
    /// `SAFEWALK_POSITION_WRITE_DELAY` (seconds, default 10; 0 writes every fix at once): how
    /// long a change that only a fix made may wait before it is written (``PositionWrites``),
    /// at most a quarter of `SAFEWALK_NO_MOVEMENT_AFTER`.
    public var positionWriteDelay: Double
    /// `SAFEWALK_OUTBOX_MARK_DELAY` (seconds, default 1; 0 marks every batch at once): how long
    /// the broker's acknowledgement of a prompt, status, answer or incident state may wait before
    /// its outbox row is marked sent, many in one transaction (``SentMarks``). An escalation's
    /// mark never waits. A crash in between publishes those rows again, with the same ids.
    public var sentMarkDelay: Double
    /// `SAFEWALK_ESCALATION_RECEIPT_WAIT` (seconds, default 5): an escalation the notifier has
    /// not receipted this long after the broker acknowledged it is published again, then after
    /// twice as long each time up to 120 s (``EscalationReceipts``).
    public var receiptWait: Double
    /// `SAFEWALK_BROKER_CUT_AFTER` (seconds, default 5; 0 turns it off): a silence of the broker
    /// longer than this stops every safety clock for its length, and deadlines wait while the
    /// broker is silent (``BrokerLink``).
    public var brokerCutAfter: Double
    /// `SAFEWALK_PARTITIONS` / `SAFEWALK_PARTITION` (``ServiceConfiguration/partition``):
    /// which of N watchdogs this is, on a cluster whose engine routes each walker's inputs to one
    /// of N partitions (docs/SCALING.md). nil for the one watchdog.
    public var partition: WalkerPartition?

    public init(
        maxPayloadBytes: Int = 16 * 1024, databaseFile: String = "watchdog.sqlite",
        walkStallAfter: Double = WatchMachine.defaultWalkStallAfter, positionWriteDelay: Double = 10,
        sentMarkDelay: Double = 1, receiptWait: Double = 5, brokerCutAfter: Double = 5,
        partition: WalkerPartition? = nil
    ) {
        self.maxPayloadBytes = maxPayloadBytes
        self.databaseFile = databaseFile
        self.walkStallAfter = walkStallAfter
        self.positionWriteDelay = positionWriteDelay
        self.sentMarkDelay = sentMarkDelay
        self.receiptWait = receiptWait
        self.brokerCutAfter = brokerCutAfter
        self.partition = partition
    }

    /// `partition` is the configuration's (``ServiceConfiguration/partition``), which reads and
    /// checks it once for every service.
    public init(environment env: EnvironmentReader, partition: WalkerPartition? = nil) throws(ConfigurationError) {
        self.init(
            maxPayloadBytes: try env.integer("SAFEWALK_WATCHDOG_MAX_PAYLOAD", default: 16 * 1024, in: 256...1_048_576),
            databaseFile: env.string("SAFEWALK_WATCHDOG_DB_FILE", default: "watchdog.sqlite"),
            walkStallAfter: try env.seconds("SAFEWALK_WALK_STALL_AFTER", default: WatchMachine.defaultWalkStallAfter),
            positionWriteDelay: try env.secondsOrZero("SAFEWALK_POSITION_WRITE_DELAY", default: 10),
            sentMarkDelay: try env.secondsOrZero("SAFEWALK_OUTBOX_MARK_DELAY", default: 1),
            receiptWait: try env.seconds("SAFEWALK_ESCALATION_RECEIPT_WAIT", default: 5),
            brokerCutAfter: try env.secondsOrZero("SAFEWALK_BROKER_CUT_AFTER", default: 5),
            partition: partition)
    }
}
