extension Topic {
    /// Parses a topic string back into a ``Topic``; nil for anything outside the contract,
    /// including invalid walker ids, wildcards, empty levels and extra levels.
    public static func parse(_ topic: String, prefix: String = Topic.defaultPrefix) -> Topic? {
        walkerTopic(topic, prefix: prefix) ?? parseLevels(topic, prefix: prefix)
    }

    /// Any topic, split into its levels first.
    static func parseLevels(_ topic: String, prefix: String) -> Topic? {
        let levels = Self.levels(of: topic)
        let prefixLevels = Self.levels(of: prefix)
        if levels.count > prefixLevels.count, Array(levels.prefix(prefixLevels.count)) == prefixLevels,
            let parsed = parseUnderPrefix(Array(levels.dropFirst(prefixLevels.count)))
        {
            return parsed
        }
        // `owntracks/{user}/{device}`, or as routed to a partition (`.../1`; ``Kind/isPartitioned``).
        if levels.count == 3 || (levels.count == 4 && WalkerPartition.isLevel(levels[3])),
            levels[0] == Kind.owntracks.path,
            let user = WalkerID(validating: levels[1]), let device = DeviceName(validating: levels[2])
        {
            return .owntracks(user: user, device: device)
        }
        return nil
    }

    /// `{prefix}/{w}/{path}` read in place, without splitting the topic into an array of levels:
    /// nearly every message a service reads is a walker's, and the split was most of what
    /// parsing cost (issue 22: `Topic.parse` took more of location-ingest's CPU than decoding the
    /// fix). Only a success is taken: anything else (a service or system topic, a partition
    /// level, an invalid walker) goes the general way, which reads a topic that passes here
    /// exactly as this does (a first level without `_` is always a walker's: `walkerTopic(_:)`).
    static func walkerTopic(_ topic: String, prefix: String) -> Topic? {
        let bytes = topic.utf8
        let slash = UInt8(ascii: "/")
        guard bytes.starts(with: prefix.utf8) else { return nil }
        let afterPrefix = bytes.index(bytes.startIndex, offsetBy: prefix.utf8.count)
        guard afterPrefix < bytes.endIndex, bytes[afterPrefix] == slash else { return nil }
        let walkerStart = bytes.index(after: afterPrefix)
        guard walkerStart < bytes.endIndex, bytes[walkerStart] != UInt8(ascii: "_"),
            let walkerEnd = bytes[walkerStart...].firstIndex(of: slash)
        else { return nil }
        let pathStart = bytes.index(after: walkerEnd)
        guard let kind = Kind(.walker, path: String(Substring(bytes[pathStart...]))),
            let walker = WalkerID(validating: String(Substring(bytes[walkerStart..<walkerEnd])))
        else { return nil }
        return Topic(kind, walker: walker)
    }

    /// The levels of an MQTT topic: split at every byte `/`, as the broker splits them. Every
    /// message a service reads is parsed, and splitting by `Character` walked the topic's
    /// grapheme clusters (a tenth of contacts-store's CPU at walking pace, perf). The two agree
    /// but for a `/` followed by a combining mark, which the broker, like this, takes as a
    /// separator.
    static func levels(of topic: String) -> [String] {
        topic.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map {
            String(Substring($0))
        }
    }

    /// `{path}`, `{path}/{service}`, `{path}/{w}` or `{w}/{path}`. A walker id can never be a
    /// service, system or service-only level (``Kind/serviceLevels``), no system path ends where
    /// a service path does, and no service path is a service-only walker path, so no two readings
    /// both succeed.
    private static func parseUnderPrefix(_ rest: [String]) -> Topic? {
        if let topic = parseUnpartitioned(rest) { return topic }
        // A partitioned input as the engine routed it, or one instance's status: its partition
        // last (``Kind/takesPartitionLevel``).
        guard rest.count >= 3, let last = rest.last, WalkerPartition.isLevel(last),
            let topic = parseUnpartitioned(Array(rest.dropLast())), topic.kind.takesPartitionLevel
        else { return nil }
        return topic
    }

    private static func parseUnpartitioned(_ rest: [String]) -> Topic? {
        guard rest.count >= 2, let last = rest.last else { return nil }
        // Every topic not under a walker's id begins with one of ``Kind/serviceLevels``, and each
        // of those with `_` (WalkerIDTests): any other topic is a walker's or none, and the usual
        // message (a walker's) skips the three lookups below.
        if rest[0].utf8.first != UInt8(ascii: "_") { return walkerTopic(rest) }
        if let kind = Kind(.system, path: rest.joined(separator: "/")) { return Topic(system: kind) }
        let head = rest.dropLast().joined(separator: "/")
        if let kind = Kind(.service, path: head) {
            return ServiceName(validating: last).flatMap { Topic(kind, service: $0) }
        }
        if let kind = Kind(.servicesAboutWalker, path: head) {
            return WalkerID(validating: last).flatMap { Topic(kind, walker: $0) }
        }
        return walkerTopic(rest)
    }

    private static func walkerTopic(_ rest: [String]) -> Topic? {
        guard let walker = WalkerID(validating: rest[0]),
            let kind = Kind(.walker, path: rest.count == 2 ? rest[1] : rest.dropFirst().joined(separator: "/"))
        else { return nil }
        return Topic(kind, walker: walker)
    }

    /// Whether `prefix` can root our topics: non-empty levels, no wildcards, no NUL,
    /// not a `$` system topic, not `owntracks` (which would make OwnTracks topics ambiguous).
    public static func isValidPrefix(_ prefix: String) -> Bool {
        guard !prefix.isEmpty, !prefix.hasPrefix("$"), prefix.utf8.count <= 256 else { return false }
        let levels = prefix.split(separator: "/", omittingEmptySubsequences: false)
        guard levels.first.map(String.init) != Kind.owntracks.path else { return false }
        return levels.allSatisfy { level in
            !level.isEmpty && !level.contains { $0 == "+" || $0 == "#" || $0 == "\u{0}" }
        }
    }
}
