import SafeWalkCore

/// The monitoring desk's close (`_desk/close`; docs/CONTRACT.md, "The monitoring desk"): an
/// operator ends a walker's open incident with a reason. Only `web` can send it (mosquitto/acl),
/// so it needs no PIN: the desk is not the phone, and a PIN is the walker's proof that it is they
/// who say "safe", which an operator never claims.
extension WatchMachine {
    /// Closes the incident the services see (``Watch/incidentForServices``) when it is the one the
    /// operator saw, and answers. The `_incidents/{w}` close (`closedBy: desk`, with the reason)
    /// comes from the step's comparison before and after, like every other close.
    ///
    /// A non-duress incident ends exactly as the walker's own `imSafe` ends it (``rearm(_:now:)``):
    /// the watch goes on and every clock restarts from now. A duress incident closes for the
    /// services only: the device already saw it cancelled, so nothing it can read may change
    /// (no status, no answer, no clock), or the phone in the hands of whoever forced the cancel
    /// would show that the desk had been watching all along.
    func closeForDesk(_ close: DeskClose, _ watch: inout Watch, now: EpochSeconds, into decisions: inout Decisions) {
        let failure = deskRefusal(close, watch)
        if failure == nil {
            watch.duress = nil
            // The incident the device knows, when it is this one: the non-duress incident itself,
            // or a later one that joined an open duress incident (it takes the duress id). The
            // device saw that one open, so it sees it end as after any close of an incident it
            // knew of; nothing in that tells it about the duress.
            if watch.incident?.id == close.incident { rearm(&watch, now: now) }
        }
        decisions.desk.append(.answerDesk(Self.deskAnswer(close, failure)))
    }

    /// Why `close` changes nothing, or nil when it may close the walker's incident: it must name
    /// the incident open for the services (a repeat of an applied close, or a close of an older
    /// incident, finds none), and ``DeskCloseRule`` must allow its reason for that incident.
    func deskRefusal(_ close: DeskClose, _ watch: Watch) -> DeskCloseResult.Failure? {
        guard let open = watch.incidentForServices, open.incident == close.incident else { return .notOpen }
        return DeskCloseRule.refusal(reason: close.reason, note: close.note, duress: open.duress)
    }

    /// The answer on `_desk/result`: ok, or why not.
    static func deskAnswer(_ close: DeskClose, _ failure: DeskCloseResult.Failure?) -> DeskCloseResult {
        DeskCloseResult(
            id: close.id, ok: failure == nil, error: failure, walker: close.walker, incident: close.incident)
    }
}

extension WatchEvent {
    /// The desk's reason, for the `_incidents/{w}` close a desk close causes; nil for other events.
    var deskCloseReason: DeskCloseReason? {
        if case .deskClose(let close) = self { close.reason } else { nil }
    }
}

extension WatchEngine {
    /// A desk close for its walker. A walker the watchdog has no watch for has no incident: the
    /// answer is `notOpen`, and no watch is made for them (a close must never create state).
    public mutating func closeForDesk(_ close: DeskClose, now: EpochSeconds) -> WatchStep {
        guard watch(for: close.walker) != nil else {
            return WatchStep(
                watch: WatchMachine.fresh(close.walker, now: now),
                actions: [.answerDesk(WatchMachine.deskAnswer(close, .notOpen))], changed: false)
        }
        return handle(.deskClose(close), for: close.walker, now: now)
    }
}
