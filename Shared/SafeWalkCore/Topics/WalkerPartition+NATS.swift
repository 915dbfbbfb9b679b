import Foundation

extension WalkerPartition {
    /// The `mappings` block a NATS node needs for `count` partitions: each partitioned input
    /// (``Topic/Kind/isPartitioned``) to the same subject with the walker's partition appended,
    /// `partition(count, 1)` of the walker id. Every node of the cluster carries the same block;
    /// the partitioned services are then started with `SAFEWALK_PARTITIONS=count`.
    ///
    /// MQTT's `/` is NATS's `.`, and MQTT's `+` its `*`; `prefix` is a valid topic prefix
    /// (``Topic/isValidPrefix(_:)``) whose levels hold no `.`, which NATS would read as a level.
    public static func natsMappings(count: Int, prefix: String = Topic.defaultPrefix) -> String {
        let subject = prefix.replacingOccurrences(of: "/", with: ".")
        let lines = Topic.Kind.allCases.filter(\.isPartitioned).map { kind -> String in
            let path = kind.path.replacingOccurrences(of: "/", with: ".")
            let (from, to) =
                switch kind.scope {
                case .servicesAboutWalker: ("\(subject).\(path).*", "\(subject).\(path).{{wildcard(1)}}")
                // `owntracks.{user}.{device}`, outside the prefix; the user is the walker.
                case .owntracks: ("\(path).*.*", "\(path).{{wildcard(1)}}.{{wildcard(2)}}")
                default: ("\(subject).*.\(path)", "\(subject).{{wildcard(1)}}.\(path)")
                }
            return "  \"\(from)\": \"\(to).{{partition(\(count),1)}}\""
        }
        return "mappings = {\n" + lines.joined(separator: "\n") + "\n}\n"
    }
}
