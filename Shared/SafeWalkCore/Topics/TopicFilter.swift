/// An MQTT subscription filter (may contain `+` and a trailing `#`), with builders for the
/// subscriptions SafeWalk services need and MQTT's matching rule (for in-memory buses).
public struct TopicFilter: Hashable, Sendable, CustomStringConvertible {
    /// The filter string as sent to the broker.
    public let rawValue: String

    /// Accepts a filter only if it is well formed: `+` and `#` occupy whole levels,
    /// `#` only last, no NUL, not empty.
    public init?(_ rawValue: String) {
        guard Self.isWellFormed(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    private init(trusted: String) { rawValue = trusted }

    /// A filter matching exactly one topic.
    public init(_ topic: Topic, prefix: String = Topic.defaultPrefix) {
        rawValue = topic.name(prefix: prefix)
    }

    public var description: String { rawValue }

    /// Every topic of `kind`: `{prefix}/+/{path}` for a walker kind (every walker's fixes),
    /// `{prefix}/{path}/+` for a service kind (every service's status) or a service-only walker
    /// kind (every walker's incident), `owntracks/+/+` for every OwnTracks device of every user,
    /// `{prefix}/{path}` for the one topic of a system kind.
    ///
    /// A kind that may end in a partition level (``Topic/Kind/takesPartitionLevel``) gets a
    /// trailing `/#`, which matches the topic itself and its routed form on a cluster with
    /// several watchdogs (`{prefix}/+/position/#`), or every instance's status
    /// (`{prefix}/_service/+/#`).
    public static func every(_ kind: Topic.Kind, prefix: String = Topic.defaultPrefix) -> TopicFilter {
        let exact = exactly(kind, prefix: prefix)
        return kind.takesPartitionLevel ? TopicFilter(trusted: exact.rawValue + "/#") : exact
    }

    /// What one partitioned instance (a watchdog, a companion, an ingest) reads of a partitioned `kind`: with
    /// no partition (one instance), exactly the kind's topics; instance K of several, the engine's
    /// routed form, `{prefix}/+/action/K`.
    public static func partitionInput(
        _ kind: Topic.Kind, partition: WalkerPartition?, prefix: String = Topic.defaultPrefix
    ) -> TopicFilter {
        let exact = exactly(kind, prefix: prefix)
        guard let partition, kind.isPartitioned else { return exact }
        return TopicFilter(trusted: exact.rawValue + "/" + partition.level)
    }

    /// Every topic of `kind`, as published (no partition level).
    private static func exactly(_ kind: Topic.Kind, prefix: String) -> TopicFilter {
        switch kind.scope {
        case .walker: TopicFilter(trusted: "\(prefix)/+/\(kind.path)")
        case .service, .servicesAboutWalker: TopicFilter(trusted: "\(prefix)/\(kind.path)/+")
        case .owntracks: TopicFilter(trusted: "\(kind.path)/+/+")
        case .system: TopicFilter(trusted: "\(prefix)/\(kind.path)")
        }
    }

    /// `owntracks/{w}/+`: every OwnTracks device of one walker.
    public static func owntracks(of walker: WalkerID) -> TopicFilter {
        TopicFilter(trusted: "\(Topic.Kind.owntracks.path)/\(walker)/+")
    }

    /// `owntracks/{w}/+/#`: every topic of every device of one walker, which an erasure clears of
    /// retained messages. Wider than ``owntracks(of:)`` because on a partitioned cluster the nodes
    /// keep a device's retained location at its routed form, `owntracks/{w}/{d}/K`
    /// (docs/SCALING.md, "Walkers partitioned").
    public static func owntracksDevices(of walker: WalkerID) -> TopicFilter {
        TopicFilter(trusted: "\(Topic.Kind.owntracks.path)/\(walker)/+/#")
    }

    /// `owntracks/{w}/+/cmd`: the commands the OwnTracks app reads on each of one walker's devices.
    public static func owntracksCommands(of walker: WalkerID) -> TopicFilter {
        TopicFilter(trusted: "\(Topic.Kind.owntracks.path)/\(walker)/+/cmd")
    }

    /// `{prefix}/{w}/#`: everything about one walker.
    public static func walker(_ walker: WalkerID, prefix: String = Topic.defaultPrefix) -> TopicFilter {
        TopicFilter(trusted: "\(prefix)/\(walker)/#")
    }

    /// `{prefix}/#`: everything under the prefix (operators, tests).
    public static func everything(prefix: String = Topic.defaultPrefix) -> TopicFilter {
        TopicFilter(trusted: "\(prefix)/#")
    }

    /// Whether a published topic name matches this filter, by MQTT 3.1.1 §4.7 rules:
    /// `+` matches one level, `#` the parent and any number of levels below, and a
    /// wildcard first level never matches a `$` topic.
    public func matches(_ topic: String) -> Bool {
        if topic.hasPrefix("$"), rawValue.hasPrefix("+") || rawValue.hasPrefix("#") { return false }
        let filterLevels = rawValue.split(separator: "/", omittingEmptySubsequences: false)
        let topicLevels = topic.split(separator: "/", omittingEmptySubsequences: false)
        for (index, level) in filterLevels.enumerated() {
            if level == "#" { return true }
            guard index < topicLevels.count else { return false }
            if level != "+" && level != topicLevels[index] { return false }
        }
        return filterLevels.count == topicLevels.count
    }

    private static func isWellFormed(_ raw: String) -> Bool {
        guard !raw.isEmpty, !raw.contains("\u{0}") else { return false }
        let levels = raw.split(separator: "/", omittingEmptySubsequences: false)
        for (index, level) in levels.enumerated() {
            if level.contains("#") && (level != "#" || index != levels.count - 1) { return false }
            if level.contains("+") && level != "+" { return false }
        }
        return true
    }
}
