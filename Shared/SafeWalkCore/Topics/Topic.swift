/// Every topic in the SafeWalk contract (docs/CONTRACT.md), built and parsed in one place so no
/// service concatenates topic strings.
///
/// Walker topics live under a configurable prefix (`safewalk` by default); OwnTracks topics
/// (`owntracks/{user}/{device}`) never do, because that is where the OwnTracks app publishes.
public enum Topic: Hashable, Sendable {
    case fix(WalkerID)
    case presence(WalkerID)
    case reply(WalkerID)
    case action(WalkerID)
    case position(WalkerID)
    case status(WalkerID)
    case prompt(WalkerID)
    case chat(WalkerID)
    case escalation(WalkerID)
    case contactsAdd(WalkerID)
    case contactsRemove(WalkerID)
    case contacts(WalkerID)
    case contactsResult(WalkerID)
    case alert(WalkerID)
    case delivery(WalkerID)
    /// `{w}/action/result`: `{v, id, ok, error?}` once an action is durably recorded.
    case actionResult(WalkerID)
    /// `{w}/rejected`: `{v, kind, reason, id?}` for each input of this walker a service refused.
    case inputRejected(WalkerID)
    /// `{prefix}/_rejected/{service}`: what a service rejected and why, for operators.
    case rejected(ServiceName)
    /// `{prefix}/_service/{name}`: retained `online`/`offline` (Last Will `offline`).
    case serviceStatus(ServiceName)
    /// `owntracks/{user}/{device}`, not under the prefix; the walker id is the user.
    case owntracks(user: WalkerID, device: DeviceName)

    /// The prefix used when none is configured.
    public static let defaultPrefix = "safewalk"

    /// Builds a per-walker topic from its channel.
    public init(_ channel: WalkerChannel, walker: WalkerID) {
        switch channel {
        case .fix: self = .fix(walker)
        case .presence: self = .presence(walker)
        case .reply: self = .reply(walker)
        case .action: self = .action(walker)
        case .position: self = .position(walker)
        case .status: self = .status(walker)
        case .prompt: self = .prompt(walker)
        case .chat: self = .chat(walker)
        case .escalation: self = .escalation(walker)
        case .contactsAdd: self = .contactsAdd(walker)
        case .contactsRemove: self = .contactsRemove(walker)
        case .contacts: self = .contacts(walker)
        case .contactsResult: self = .contactsResult(walker)
        case .alert: self = .alert(walker)
        case .delivery: self = .delivery(walker)
        case .actionResult: self = .actionResult(walker)
        case .inputRejected: self = .inputRejected(walker)
        }
    }

    /// The walker and channel of a per-walker topic; nil for service and OwnTracks topics.
    public var walkerChannel: (walker: WalkerID, channel: WalkerChannel)? {
        switch self {
        case .fix(let w): (w, .fix)
        case .presence(let w): (w, .presence)
        case .reply(let w): (w, .reply)
        case .action(let w): (w, .action)
        case .position(let w): (w, .position)
        case .status(let w): (w, .status)
        case .prompt(let w): (w, .prompt)
        case .chat(let w): (w, .chat)
        case .escalation(let w): (w, .escalation)
        case .contactsAdd(let w): (w, .contactsAdd)
        case .contactsRemove(let w): (w, .contactsRemove)
        case .contacts(let w): (w, .contacts)
        case .contactsResult(let w): (w, .contactsResult)
        case .alert(let w): (w, .alert)
        case .delivery(let w): (w, .delivery)
        case .actionResult(let w): (w, .actionResult)
        case .inputRejected(let w): (w, .inputRejected)
        case .rejected, .serviceStatus, .owntracks: nil
        }
    }

    /// The walker this topic concerns (the user for OwnTracks); nil for service topics.
    public var walker: WalkerID? {
        if case .owntracks(let user, _) = self { return user }
        return walkerChannel?.walker
    }

    /// A stable code naming the kind of topic, never the walker.
    public var kind: TopicKind {
        switch self {
        case .rejected: .rejected
        case .serviceStatus: .serviceStatus
        case .owntracks: .owntracks
        default: TopicKind(walkerChannel!.channel)
        }
    }

    /// The topic string. `prefix` should satisfy ``isValidPrefix(_:)``.
    public func name(prefix: String = Topic.defaultPrefix) -> String {
        switch self {
        case .rejected(let service): "\(prefix)/_rejected/\(service)"
        case .serviceStatus(let service): "\(prefix)/_service/\(service)"
        case .owntracks(let user, let device): "owntracks/\(user)/\(device)"
        default:
            // Every other case is a walker topic, so `walkerChannel` is non-nil here.
            "\(prefix)/\(walkerChannel!.walker)/\(walkerChannel!.channel.path)"
        }
    }
}
