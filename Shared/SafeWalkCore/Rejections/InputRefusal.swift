/// What a service refused of a walker's own input, on `{w}/rejected`: the topic kind it came
/// in on, the stable reason, and the action id when one was readable. Never the payload.
public struct InputRefusal: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    public var kind: Topic.Kind
    public var reason: String
    public var id: String?

    public init(kind: Topic.Kind, reason: String, id: String? = nil) {
        self.kind = kind
        self.reason = reason
        self.id = id
    }

    /// The topic kinds a walker's device publishes on: a refusal of anything else (another
    /// service's output) is not the device's business.
    public static let deviceInputs: Set<Topic.Kind> = [
        .fix, .owntracks, .reply, .action, .presence, .contactsAdd, .contactsRemove,
    ]
}
