extension Topic {
    /// Every kind of topic in the contract: the one list. Its raw value is the stable code that
    /// names a kind in logs, metrics, ``Rejection/topicKind`` and ``InputRefusal/kind``.
    public enum Kind: String, CaseIterable, Hashable, Sendable, Codable {
        case fix, presence, reply, action, position, status, prompt, chat, escalation
        case contactsAdd, contactsRemove, contacts, contactsResult, alert, delivery
        /// `{w}/action/result`: the watchdog's answer to each action, once it is durably recorded.
        case actionResult
        /// `{w}/rejected`: what a service refused of this walker's own input, and why.
        case inputRejected
        /// `{prefix}/_rejected/{service}`: what a service rejected and why, for operators.
        case rejected
        /// `{prefix}/_service/{service}`: retained `online`/`offline` (Last Will `offline`).
        case serviceStatus
        /// `owntracks/{user}/{device}`, not under the prefix; the walker id is the user.
        case owntracks
        /// `{prefix}/_accounts/command`: `web` asks `broker-admin` for an ``AccountCommand``.
        case accountCommand
        /// `{prefix}/_accounts/result`: `broker-admin`'s ``AccountCommandResult``.
        case accountResult
        /// `{prefix}/_accounts/erase/{service}`: `web` asks one service to erase a walker.
        case accountErase
        /// `{prefix}/_accounts/erased/{service}`: that service's ``EraseReport``.
        case accountErased
        /// `{prefix}/_incidents/{w}`: the watchdog's retained ``IncidentState`` of one walker, for
        /// services and operators only.
        case incident
        /// `{prefix}/_arrivals/{w}`: the watchdog's ``Arrival`` when a walk ends as `arrived`, for
        /// contacts-store ("home safe") and operators only.
        case arrival
        /// `{prefix}/_ladder/{w}`: the notifier's retained ``LadderState`` of the walker's latest
        /// incident (who was told, who is on it), for `web` and operators only.
        case ladder
        /// `{prefix}/_acks/request`: `web` asks the notifier to record an ``AcknowledgementRequest``.
        case acknowledgementRequest
        /// `{prefix}/_acks/result`: the notifier's ``AcknowledgementResult``.
        case acknowledgementResult
        /// `{prefix}/_receipts/gateway`: a ``GatewayReceipt`` `web` read from the SMS gateway.
        case gatewayReceipt
        /// `{w}/circle/cmd`: a ``CircleCommand`` from the user's device to the circle owner.
        case circleCommand
        /// `{w}/circle/result`: the circle owner's ``CircleResult`` for each command.
        case circleResult
        /// `{w}/circle`: the retained ``CircleView`` of the user's own circle.
        case circle
        /// `{w}/inbox`: ``InboxEvent``s for the user from others in the circle.
        case inbox
        /// `{prefix}/_members/{w}`: `web`'s retained ``Member`` for each account.
        case member
        /// `{prefix}/_desk/close`: `web` asks the watchdog to close an incident for the
        /// monitoring desk (``DeskClose``); no device may write it.
        case deskClose
        /// `{prefix}/_desk/result`: the watchdog's ``DeskCloseResult``.
        case deskResult
        /// `{w}/desk`: ``DeskNotice``s telling the walker who of the desk looked at their alert.
        case deskNotice
        /// `{prefix}/_escalations/received/{w}`: the notifier's ``EscalationReceipt``, published
        /// once an escalation is in its ledger; until then the watchdog publishes it again.
        case escalationReceived
        /// `{prefix}/_heartbeat/{service}`: a QoS 1 `online` a service publishes only to hear from
        /// the broker (its acknowledgement); nobody reads it. The watchdog's ``BrokerLink``.
        case heartbeat

        /// What a topic of a kind is about, which decides where its ``path`` goes.
        public enum Scope: Hashable, Sendable {
            /// `{prefix}/{w}/{path}`
            case walker
            /// `{prefix}/{path}/{service}`
            case service
            /// `{path}/{user}/{device}`, without the prefix
            case owntracks
            /// `{prefix}/{path}`: one topic of its kind, about no walker or service
            case system
            /// `{prefix}/{path}/{w}`: about one walker, but for services only. It stays outside the
            /// walker's own `{prefix}/{w}/`, every level of which the broker's `%u` rule may let
            /// the walker's device read.
            case servicesAboutWalker
        }

        /// The one place a kind meets its levels; every other kind is a walker kind whose path
        /// is its raw value.
        private var layout: (scope: Scope, path: String) {
            switch self {
            case .contactsAdd: (.walker, "contacts/add")
            case .contactsRemove: (.walker, "contacts/remove")
            case .contactsResult: (.walker, "contacts/result")
            case .actionResult: (.walker, "action/result")
            case .inputRejected: (.walker, "rejected")
            case .rejected: (.service, "_rejected")
            case .serviceStatus: (.service, "_service")
            case .owntracks: (.owntracks, "owntracks")
            case .accountCommand: (.system, "_accounts/command")
            case .accountResult: (.system, "_accounts/result")
            case .accountErase: (.service, "_accounts/erase")
            case .accountErased: (.service, "_accounts/erased")
            case .incident: (.servicesAboutWalker, "_incidents")
            case .arrival: (.servicesAboutWalker, "_arrivals")
            case .ladder: (.servicesAboutWalker, "_ladder")
            case .acknowledgementRequest: (.system, "_acks/request")
            case .acknowledgementResult: (.system, "_acks/result")
            case .gatewayReceipt: (.system, "_receipts/gateway")
            case .circleCommand: (.walker, "circle/cmd")
            case .circleResult: (.walker, "circle/result")
            case .member: (.servicesAboutWalker, "_members")
            case .deskClose: (.system, "_desk/close")
            case .deskResult: (.system, "_desk/result")
            case .deskNotice: (.walker, "desk")
            case .escalationReceived: (.servicesAboutWalker, "_escalations/received")
            case .heartbeat: (.service, "_heartbeat")
            default: (.walker, rawValue)
            }
        }

        public var scope: Scope { layout.scope }

        /// The fixed levels of this kind's topics, e.g. `contacts/add` (after the walker id),
        /// `_rejected` (before the service name) or `owntracks`.
        public var path: String { layout.path }

        /// Whether topics of this kind exist once per walker, under `{prefix}/{w}/`.
        public var isPerWalker: Bool { scope == .walker }

        /// The per-walker inputs of the partitioned services: the watchdog's five, the companion's
        /// prompts (its replies are among the watchdog's) and location-ingest's fixes, ours and
        /// OwnTracks' (`owntracks/{user}/{device}/1`; the apps' `.../cmd` is never routed). On a cluster with N
        /// partitions the engine routes each to the walker's ``WalkerPartition`` by appending it as
        /// a last level (`{prefix}/{w}/action/1`, `{prefix}/_escalations/received/{w}/1`), so every
        /// other reader of these kinds subscribes with a trailing `/#`
        /// (``TopicFilter/every(_:prefix:)``) and ``Topic/parse(_:prefix:)`` accepts the level.
        /// Publishers never write it.
        public var isPartitioned: Bool {
            switch self {
            case .position, .reply, .action, .presence, .escalationReceived, .prompt, .fix, .owntracks: true
            default: false
            }
        }

        /// Whether a topic of this kind may end in a partition level: the routed form of a
        /// partitioned input (``isPartitioned``), or the status of one instance of a partitioned
        /// service, which that instance publishes itself (`_service/watchdog/1`: N instances
        /// sharing one retained status would each overwrite the others', and one's Last Will
        /// would say `offline` while the rest run).
        public var takesPartitionLevel: Bool { isPartitioned || self == .serviceStatus }

        /// The kind of `scope` whose ``path`` is `path`, if any.
        public init?(_ scope: Scope, path: String) {
            guard let kind = Self.byPath[scope]?[path] else { return nil }
            self = kind
        }

        /// Every kind by scope and path. Topics are parsed for every message a service reads,
        /// so this is a lookup, not a scan.
        private static let byPath: [Scope: [String: Kind]] = Dictionary(grouping: allCases, by: \.scope)
            .mapValues { kinds in Dictionary(uniqueKeysWithValues: kinds.map { ($0.path, $0) }) }

        /// The first levels of every topic not under a walker's own id (`_service`, `_rejected`,
        /// `_accounts`, `_incidents`, `_ladder`, `_acks`, `_receipts`, `_desk`, `_escalations`): a walker id may not be one, or a walker's topics could be
        /// read as those.
        static let serviceLevels: Set<String> = Set(
            allCases.filter { $0.scope != .walker && $0.scope != .owntracks }
                .compactMap { $0.path.split(separator: "/").first.map(String.init) }
        )
    }
}
