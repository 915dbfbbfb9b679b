/// The topics a web app session may use, under the walker's own id (docs/services/web.md, "The
/// walker's app API"): the same as the walker's own device, nothing of anyone else's. One list,
/// read by `broker-admin` (the session role's ACLs) and by `web` (what it subscribes to and what
/// it publishes), so the two can never disagree.
public enum AppTopics {
    /// What the app may publish: `kind` in `POST /v1/app/publish`.
    public static let inputs: [Topic.Kind] = [
        .fix, .reply, .action, .presence, .contactsAdd, .contactsRemove, .circleCommand,
    ]

    /// What the app reads, each a single topic under `{prefix}/{w}/`.
    public static let reads: [Topic.Kind] = [
        .status, .position, .chat, .alert, .contacts, .contactsResult, .delivery, .actionResult,
        .inputRejected, .circle, .circleResult, .inbox, .presence, .deskNotice,
    ]

    /// The level under `{prefix}/{w}/` of the live views others share with `w` (`shared/{other}`).
    public static let sharedLevel = "shared"

    /// The kind named `path` (`contacts/add`, …) if the app may publish it.
    public static func input(named path: String) -> Topic.Kind? {
        inputs.first { $0.path == path }
    }

    /// Topics the app publishes for `walker`.
    public static func inputTopics(of walker: WalkerID, prefix: String = Topic.defaultPrefix) -> [String] {
        inputs.compactMap { Topic($0, walker: walker)?.name(prefix: prefix) }
    }

    /// Filters the app reads for `walker`: its read topics and `{prefix}/{w}/shared/+`. A
    /// partitioned kind (`position`, `presence`) is read with a trailing `/#`, which also matches
    /// the partition level a cluster with several watchdogs appends (``Topic/Kind/isPartitioned``).
    public static func readFilters(of walker: WalkerID, prefix: String = Topic.defaultPrefix) -> [String] {
        reads.compactMap { kind in
            Topic(kind, walker: walker).map { $0.name(prefix: prefix) + (kind.isPartitioned ? "/#" : "") }
        } + ["\(prefix)/\(walker)/\(sharedLevel)/+"]
    }

    /// The SSE event name of a message on `topic` for `walker`: the levels after `{prefix}/{w}/`
    /// (`status`, `action/result`, `shared/bob`), or nil when the topic is not one of the app's.
    public static func eventName(of topic: String, walker: WalkerID, prefix: String = Topic.defaultPrefix) -> String? {
        let base = "\(prefix)/\(walker)/"
        guard topic.hasPrefix(base) else { return nil }
        let rest = String(topic.dropFirst(base.count))
        if reads.contains(where: { $0.path == rest }) { return rest }
        // A routed partitioned kind (`position/1`) is the kind's event.
        if let parsed = Topic.parse(topic, prefix: prefix), parsed.walker == walker, parsed.kind.isPartitioned,
            reads.contains(parsed.kind)
        {
            return parsed.kind.path
        }
        let levels = rest.split(separator: "/", omittingEmptySubsequences: false)
        if levels.count == 2, levels[0] == sharedLevel, WalkerID(validating: String(levels[1])) != nil { return rest }
        return nil
    }
}
