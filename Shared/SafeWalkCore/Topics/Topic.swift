/// Every topic in the SafeWalk contract (docs/CONTRACT.md), built and parsed in one place so no
/// service concatenates topic strings: a ``Kind`` (the one list of kinds, each with its levels)
/// and the ``Subject`` it is about.
///
/// Walker and service topics live under a configurable prefix (`safewalk` by default); OwnTracks
/// topics (`owntracks/{user}/{device}`) never do, because that is where the OwnTracks app publishes.
/// A topic's subject always fits its kind's ``Kind/scope``: the initialisers below see to it.
public struct Topic: Hashable, Sendable {
    public let kind: Kind
    public let subject: Subject

    /// Whom a topic is about.
    public enum Subject: Hashable, Sendable {
        case walker(WalkerID)
        case service(ServiceName)
        /// The OwnTracks user is the walker id.
        case owntracks(user: WalkerID, device: DeviceName)
        /// A ``Kind/Scope/system`` topic: there is one of its kind.
        case system
    }

    /// The prefix used when none is configured.
    public static let defaultPrefix = "safewalk"

    /// Only for a kind and a subject known to fit (``Kind/scope``).
    private init(fitting kind: Kind, _ subject: Subject) {
        self.kind = kind
        self.subject = subject
    }

    /// The topic of a `kind` about one walker (under the walker's id, or a service-only one such
    /// as `_incidents/{w}`) for `walker`; nil for other kinds.
    public init?(_ kind: Kind, walker: WalkerID) {
        guard kind.scope == .walker || kind.scope == .servicesAboutWalker else { return nil }
        self.init(fitting: kind, .walker(walker))
    }

    /// The topic of a service `kind` for `service`; nil when `kind` is not a service kind.
    public init?(_ kind: Kind, service: ServiceName) {
        guard kind.scope == .service else { return nil }
        self.init(fitting: kind, .service(service))
    }

    /// The one topic of a system `kind`; nil when `kind` is not a system kind.
    public init?(system kind: Kind) {
        guard kind.scope == .system else { return nil }
        self.init(fitting: kind, .system)
    }

    /// `owntracks/{user}/{device}`.
    public static func owntracks(user: WalkerID, device: DeviceName) -> Topic {
        Topic(fitting: .owntracks, .owntracks(user: user, device: device))
    }

    /// The walker this topic concerns (the user for OwnTracks); nil for service topics.
    public var walker: WalkerID? {
        switch subject {
        case .walker(let walker), .owntracks(let walker, _): walker
        case .service, .system: nil
        }
    }

    /// The service a service topic names; nil for the others.
    public var service: ServiceName? {
        if case .service(let service) = subject { service } else { nil }
    }

    /// The topic string. `prefix` should satisfy ``isValidPrefix(_:)``.
    public func name(prefix: String = Topic.defaultPrefix) -> String {
        switch subject {
        case .walker(let walker) where kind.scope == .servicesAboutWalker: "\(prefix)/\(kind.path)/\(walker)"
        case .walker(let walker): "\(prefix)/\(walker)/\(kind.path)"
        case .service(let service): "\(prefix)/\(kind.path)/\(service)"
        case .owntracks(let user, let device): "\(kind.path)/\(user)/\(device)"
        case .system: "\(prefix)/\(kind.path)"
        }
    }
}

// Shorthands for call sites that name their kind: `.fix(walker)`, `.rejected(service)`. Each is
// the checked initialiser with a kind that fits, so none can fail.
extension Topic {
    public static func fix(_ walker: WalkerID) -> Topic { Topic(fitting: .fix, .walker(walker)) }
    public static func presence(_ walker: WalkerID) -> Topic { Topic(fitting: .presence, .walker(walker)) }
    public static func reply(_ walker: WalkerID) -> Topic { Topic(fitting: .reply, .walker(walker)) }
    public static func action(_ walker: WalkerID) -> Topic { Topic(fitting: .action, .walker(walker)) }
    public static func position(_ walker: WalkerID) -> Topic { Topic(fitting: .position, .walker(walker)) }
    public static func status(_ walker: WalkerID) -> Topic { Topic(fitting: .status, .walker(walker)) }
    public static func prompt(_ walker: WalkerID) -> Topic { Topic(fitting: .prompt, .walker(walker)) }
    public static func chat(_ walker: WalkerID) -> Topic { Topic(fitting: .chat, .walker(walker)) }
    public static func escalation(_ walker: WalkerID) -> Topic { Topic(fitting: .escalation, .walker(walker)) }
    public static func contactsAdd(_ walker: WalkerID) -> Topic { Topic(fitting: .contactsAdd, .walker(walker)) }
    public static func contactsRemove(_ walker: WalkerID) -> Topic { Topic(fitting: .contactsRemove, .walker(walker)) }
    public static func contacts(_ walker: WalkerID) -> Topic { Topic(fitting: .contacts, .walker(walker)) }
    public static func contactsResult(_ walker: WalkerID) -> Topic { Topic(fitting: .contactsResult, .walker(walker)) }
    public static func alert(_ walker: WalkerID) -> Topic { Topic(fitting: .alert, .walker(walker)) }
    public static func delivery(_ walker: WalkerID) -> Topic { Topic(fitting: .delivery, .walker(walker)) }
    public static func actionResult(_ walker: WalkerID) -> Topic { Topic(fitting: .actionResult, .walker(walker)) }
    public static func inputRejected(_ walker: WalkerID) -> Topic { Topic(fitting: .inputRejected, .walker(walker)) }
    public static func rejected(_ service: ServiceName) -> Topic { Topic(fitting: .rejected, .service(service)) }
    public static func serviceStatus(_ service: ServiceName) -> Topic {
        Topic(fitting: .serviceStatus, .service(service))
    }
    /// `_heartbeat/{service}`: the service's word to the broker, for its acknowledgement only.
    public static func heartbeat(_ service: ServiceName) -> Topic { Topic(fitting: .heartbeat, .service(service)) }
    public static let accountCommand = Topic(fitting: .accountCommand, .system)
    public static let accountResult = Topic(fitting: .accountResult, .system)
    public static func accountErase(_ service: ServiceName) -> Topic {
        Topic(fitting: .accountErase, .service(service))
    }
    public static func accountErased(_ service: ServiceName) -> Topic {
        Topic(fitting: .accountErased, .service(service))
    }
    /// `_incidents/{w}`: outside the walker's own topics, so the walker's device never reads it.
    public static func incident(_ walker: WalkerID) -> Topic { Topic(fitting: .incident, .walker(walker)) }
    /// `_arrivals/{w}`: a walk that ended as `arrived`; services only, like `_incidents/{w}`.
    public static func arrival(_ walker: WalkerID) -> Topic { Topic(fitting: .arrival, .walker(walker)) }
    /// `_ladder/{w}`: who was told of the walker's incident and who is on it; services only.
    public static func ladder(_ walker: WalkerID) -> Topic { Topic(fitting: .ladder, .walker(walker)) }
    /// `_escalations/received/{w}`: the notifier has an escalation of the walker's in its ledger.
    public static func escalationReceived(_ walker: WalkerID) -> Topic {
        Topic(fitting: .escalationReceived, .walker(walker))
    }
    public static func circleCommand(_ walker: WalkerID) -> Topic { Topic(fitting: .circleCommand, .walker(walker)) }
    public static func circleResult(_ walker: WalkerID) -> Topic { Topic(fitting: .circleResult, .walker(walker)) }
    public static func circle(_ walker: WalkerID) -> Topic { Topic(fitting: .circle, .walker(walker)) }
    public static func inbox(_ walker: WalkerID) -> Topic { Topic(fitting: .inbox, .walker(walker)) }
    public static func member(_ walker: WalkerID) -> Topic { Topic(fitting: .member, .walker(walker)) }

    /// `{prefix}/{viewer}/shared/{other}`: `other`'s retained ``SharedView`` for `viewer`. Under
    /// the viewer's own id, so the `%u` rules let the viewer read it and nobody else. The one
    /// topic about two walkers, so it is not a ``Kind``: nothing reads it but the viewer's device.
    public static func shared(for viewer: WalkerID, of other: WalkerID, prefix: String = defaultPrefix) -> String {
        "\(prefix)/\(viewer)/shared/\(other)"
    }
    public static let acknowledgementRequest = Topic(fitting: .acknowledgementRequest, .system)
    public static let acknowledgementResult = Topic(fitting: .acknowledgementResult, .system)
    public static let gatewayReceipt = Topic(fitting: .gatewayReceipt, .system)
    /// `_desk/close`: the monitoring desk closes an incident; only `web` writes it.
    public static let deskClose = Topic(fitting: .deskClose, .system)
    public static let deskResult = Topic(fitting: .deskResult, .system)
    /// `{w}/desk`: who of the desk looked at the walker's alert.
    public static func deskNotice(_ walker: WalkerID) -> Topic { Topic(fitting: .deskNotice, .walker(walker)) }
}
