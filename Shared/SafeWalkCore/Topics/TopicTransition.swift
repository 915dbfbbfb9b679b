// The names from before `Topic.Kind` and `TopicFilter.every` (issue 16, item 4), kept only while
// callers that other changes in flight are editing still use them; this file goes once they move.

/// Transitional: use ``Topic/Kind``.
public typealias WalkerChannel = Topic.Kind
/// Transitional: use ``Topic/Kind``.
public typealias TopicKind = Topic.Kind

extension TopicFilter {
    /// Transitional: use ``every(_:prefix:)``.
    public static func everyWalker(_ kind: Topic.Kind, prefix: String = Topic.defaultPrefix) -> TopicFilter {
        every(kind, prefix: prefix)
    }
}
