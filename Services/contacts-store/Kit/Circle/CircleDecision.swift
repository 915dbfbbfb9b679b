import SafeWalkCore

/// What the circle owner does about one input, decided by the pure rules and carried out by
/// ``CircleOwner``: save the mutations (one transaction), then publish.
struct CircleDecision: Sendable {
    /// The answer to a command; nil for inputs that are not commands (incidents, timers, …).
    var result: CircleResult?
    var mutations: [CircleMutation] = []
    /// Users whose `{w}/circle` changed.
    var touched: Set<WalkerID> = []
    /// "I'm on it" to hand to the notifier.
    var acknowledgement: AcknowledgementRequest?
    /// Send the commanding user's inbox again.
    var replayInbox = false

    init(result: CircleResult? = nil) {
        self.result = result
    }

    static func refused(_ command: CircleIntake.Command, _ code: CircleError.Code, _ message: String) -> CircleDecision
    {
        CircleDecision(
            result: CircleResult(
                id: command.id, op: command.op.rawValue, ok: false, error: CircleError(code, message: message)))
    }

    mutating func deliver(_ event: InboxEvent, to user: WalkerID) {
        mutations.append(.deliver(to: user, event))
    }

    /// The `{viewer}/shared/{walker}` views these mutations start or end.
    var sharesShown: [(walker: WalkerID, viewer: WalkerID)] {
        mutations.compactMap { if case .show(let walker, let viewer, _) = $0 { (walker, viewer) } else { nil } }
    }

    var sharesHidden: [(walker: WalkerID, viewer: WalkerID)] {
        mutations.compactMap { if case .hide(let walker, let viewer) = $0 { (walker, viewer) } else { nil } }
    }

    var deliveries: [(to: WalkerID, event: InboxEvent)] {
        mutations.compactMap { if case .deliver(let to, let event) = $0 { (to, event) } else { nil } }
    }
}
