import SafeWalkCore
import SafeWalkMQTT

/// A message seen by `safewalk watch`, decoded with the contract's own types.
public enum WatchEvent: Sendable, Equatable {
    case status(WatchStatus)
    case prompt(CheckInPrompt)
    case chat(ChatMessage)
    case reply(Reply)
    /// The walker's own action; shown by ``ActionText``, which never prints a PIN.
    case action(Action)
    /// The watchdog's answer on `{w}/action/result`.
    case actionResult(ActionResult)
    /// A service's refusal of the walker's input on `{w}/rejected`.
    case inputRefusal(InputRefusal)
    case presence(Presence)
    case position(PositionUpdate)
    case escalation(EscalationEvent)
    case alert(DeviceAlert)
    case delivery(DeliveryReceipt)
    case contacts(count: Int)
    case contactsResult(ContactResult)
    case service(ServiceName, Presence)
    case rejection(Rejection)
    /// The circle owner's answer on `{w}/circle/result`.
    case circleResult(CircleResult)
    /// The user's retained circle on `{w}/circle`; nil when it was cleared (an erased account).
    case circle(CircleView?)
    /// An event for the user from someone in their circle, on `{w}/inbox`.
    case inbox(InboxEvent)
    /// `{w}/shared/{other}`: `other`'s open incident for an SOS contact; nil when the retained
    /// view was cleared, i.e. it is no longer shared.
    case shared(of: WalkerID, SharedView?)
    /// A `{w}/shared/{other}` payload that is neither a view nor empty.
    case unreadableShared(of: WalkerID, reason: String)
    /// A payload that does not fit the contract; shown, never fatal.
    case unreadable(Topic.Kind, reason: String)

    /// The walker (if any) and event for a message; nil for topics watch does not show (raw
    /// fixes, contact add/remove requests with phone numbers, foreign topics).
    public static func decode(_ message: MQTTMessage, prefix: String) -> (walker: WalkerID?, event: WatchEvent)? {
        let data = message.payload
        if let shared = SharedTopic.parse(message.topic, prefix: prefix) {
            guard !data.isEmpty else { return (shared.viewer, .shared(of: shared.other, nil)) }
            do {
                return (shared.viewer, .shared(of: shared.other, try SafeWalkJSON.decode(SharedView.self, from: data)))
            } catch {
                return (shared.viewer, .unreadableShared(of: shared.other, reason: "\(error)"))
            }
        }
        guard let topic = Topic.parse(message.topic, prefix: prefix) else { return nil }
        func json<T: Decodable>(_ type: T.Type, _ wrap: (T) -> WatchEvent) -> WatchEvent {
            do {
                return wrap(try SafeWalkJSON.decode(type, from: data))
            } catch {
                return .unreadable(topic.kind, reason: "\(error)")
            }
        }
        func presence(_ wrap: (Presence) -> WatchEvent) -> WatchEvent {
            Presence(payload: data).map(wrap) ?? .unreadable(topic.kind, reason: "not online/offline")
        }
        let event: WatchEvent
        switch topic.kind {
        case .status: event = json(WatchStatus.self, WatchEvent.status)
        case .prompt: event = json(CheckInPrompt.self, WatchEvent.prompt)
        case .chat: event = json(ChatMessage.self, WatchEvent.chat)
        case .reply: event = json(Reply.self, WatchEvent.reply)
        case .action: event = json(Action.self, WatchEvent.action)
        case .presence: event = presence(WatchEvent.presence)
        case .position: event = json(PositionUpdate.self, WatchEvent.position)
        case .escalation: event = json(EscalationEvent.self, WatchEvent.escalation)
        case .alert: event = json(DeviceAlert.self, WatchEvent.alert)
        case .delivery: event = json(DeliveryReceipt.self, WatchEvent.delivery)
        case .contacts: event = json(ContactList.self) { .contacts(count: $0.contacts.count) }
        case .contactsResult: event = json(ContactResult.self, WatchEvent.contactsResult)
        case .serviceStatus:
            guard let name = topic.service else { return nil }
            event = presence { .service(name, $0) }
        case .rejected: event = json(Rejection.self, WatchEvent.rejection)
        case .actionResult: event = json(ActionResult.self, WatchEvent.actionResult)
        case .inputRejected: event = json(InputRefusal.self, WatchEvent.inputRefusal)
        case .circleResult: event = json(CircleResult.self, WatchEvent.circleResult)
        case .circle: event = data.isEmpty ? .circle(nil) : json(CircleView.self) { .circle($0) }
        case .inbox: event = json(InboxEvent.self, WatchEvent.inbox)
        // Not shown: raw fixes, contact requests with phone numbers, and the accounts traffic
        // (commands carry passwords, and an operator cannot read any of it). Incidents and their
        // ladders (issue 18) are not shown yet: the escalations above already say what happened;
        // acknowledgements and gateway reports are services' traffic. A circle command is shown by
        // its answer on circle/result (a walker's login may write circle/cmd but not read it, so
        // only an operator would ever see one); `_members/{w}` is the accounts' roster, one
        // retained message per account each time web starts, which says nothing about a walk.
        // Arrivals (`_arrivals/{w}`) are services' traffic: the walk's status already says it, and
        // so is the monitoring desk's close (`_desk/*`): the incident's end shows in the status.
        // The desk's notices to the walker (`{w}/desk`) are for the walker's app. Escalation
        // receipts (`_escalations/received/{w}`) are the notifier's word to the watchdog, and its
        // heartbeat (`_heartbeat/watchdog`) is for the broker's acknowledgement only.
        case .deskClose, .deskResult, .deskNotice, .escalationReceived, .heartbeat,
            .fix, .contactsAdd, .contactsRemove, .owntracks, .accountCommand, .accountResult, .accountErase,
            .accountErased, .incident, .ladder, .acknowledgementRequest, .acknowledgementResult, .gatewayReceipt,
            .circleCommand, .member, .arrival:
            return nil
        }
        return (topic.walker, event)
    }
}
