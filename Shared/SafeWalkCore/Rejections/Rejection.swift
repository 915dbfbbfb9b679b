/// What a service refused and why (`{prefix}/_rejected/{service}`, for operators). It never
/// carries the rejected payload: that may hold another walker's position or phone numbers.
public struct Rejection: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    public var service: ServiceName
    /// A stable code such as ``PayloadError/code`` or ``FixRejection/code``.
    public var reason: String
    public var topicKind: Topic.Kind
    /// The walker the topic named, when it named a valid one.
    public var walker: WalkerID?
    public var at: EpochSeconds

    public init(service: ServiceName, reason: String, topicKind: Topic.Kind, walker: WalkerID?, at: EpochSeconds) {
        self.service = service
        self.reason = reason
        self.topicKind = topicKind
        self.walker = walker
        self.at = at
    }
}
