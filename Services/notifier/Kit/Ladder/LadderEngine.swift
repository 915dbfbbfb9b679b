import Foundation
import GRDB
import SafeWalkCore
import SafeWalkService

/// The ladder's shell around the pure ``Ladder`` and ``LadderJobs``: each event (an escalation,
/// a due deadline, an incident's end, an acknowledgement, a gateway receipt) is ONE SQLite
/// transaction that reads the ladder, steps it, admits the resulting jobs into the ledger and
/// writes the ladder back. The caller then runs the jobs and publishes the states.
public struct LadderEngine: Sendable {
    let ledger: DeliveryLedger
    let settings: LadderSettings
    let webhookTier: LadderTier
    let webhookEnabled: Bool
    let context: LadderContext
    /// Whom each enabled channel delivers a plan to (the service's channels).
    let targets: @Sendable (DeliveryPlan) -> [(channel: String, target: DeliveryTarget)]
    let mint: @Sendable () -> String
    let newCode: @Sendable () -> String

    /// What one event produced: jobs to run and the ladder's state to publish.
    public struct Outcome: Sendable {
        public var jobs: [LadderJob] = []
        public var states: [Published] = []
        /// The escalation's id was already admitted: nothing was done.
        public var duplicate = false
    }

    /// A state with its revision (states are published in revision order).
    public struct Published: Sendable, Hashable {
        public var revision: Int
        public var state: LadderState
    }

    public init(
        ledger: DeliveryLedger, settings: NotifierSettings, webhookEnabled: Bool,
        targets: @escaping @Sendable (DeliveryPlan) -> [(channel: String, target: DeliveryTarget)],
        mint: @escaping @Sendable () -> String = PageToken.mint, newCode: @escaping @Sendable () -> String = Self.code,
        newRef: @escaping @Sendable () -> String = Self.ref
    ) {
        self.ledger = ledger
        self.settings = settings.ladder
        webhookTier = settings.webhookTier
        self.webhookEnabled = webhookEnabled
        context = LadderContext(
            emergency: settings.emergency, timeZone: settings.timeZone, desk: settings.deskName, newRef: newRef)
        self.targets = targets
        self.mint = mint
        self.newCode = newCode
    }

    /// A random 4-digit reply code, of one notifier for every walker (a partitioned instance
    /// mints its own: ``NotifierShare/mintCode(random:)``).
    public static func code() -> String { NotifierShare(nil).mintCode() }

    /// A random 64-bit reference in hex, naming one text in its status callback.
    public static func ref() -> String { TokenText.hex(TokenText.randomBytes(8)) }

    /// Steps one stored ladder inside the caller's transaction, admits its jobs and saves it.
    func step(
        _ db: Database, _ incident: String, now: Double, into outcome: inout Outcome,
        _ change: (inout LadderRecord, inout [LadderMember]) -> [LadderJob]
    ) throws {
        guard var (record, members) = try LadderStore.load(db, incident: incident) else { return }
        let jobs = change(&record, &members)
        outcome.jobs += try LadderStore.admit(db, jobs, incident: incident, targets: targets, now: now)
        let revision = try LadderStore.save(db, record, members, settings: settings, now: now)
        outcome.states.append(Published(revision: revision, state: record.state(members: members)))
    }

    /// An escalation: opens its incident's ladder (tier 1 at once, under the escalation's own id),
    /// or raises an open one (its job reaches everyone told so far).
    public func escalation(_ event: EscalationEvent, contacts: [Contact], now: Double) async throws -> Outcome {
        try await ledger.write { [self] db in
            var outcome = Outcome()
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM escalation WHERE id = ?", arguments: [event.id]) == true {
                outcome.duplicate = true
                return outcome
            }
            if try LadderStore.load(db, incident: event.incident) != nil {
                try step(db, event.incident, now: now, into: &outcome) { record, members in
                    [LadderJobs.raise(event, record: &record, members: &members, now: now, context: context)]
                }
                return outcome
            }
            let (ladder, _) = Ladder.open(incident: event.incident, level: event.level, at: now)
            var record = LadderRecord(
                ladder: ladder, walker: event.walker, event: event, duress: event.duress, code: newCode(),
                timeline: [], counts: [:])
            var members = LadderJobs.members(
                contacts: contacts, webhook: webhookEnabled, webhookTier: webhookTier, mint: mint)
            let first = LadderJobs.first(
                record: &record, members: &members, contacts: contacts, now: now, context: context)
            var clears: [LadderJob] = []
            if let tombstone = try LadderStore.tombstone(db, incident: event.incident) {
                // Closed before its escalation came: tell tier 1 anyway, and all-clear right after.
                (record.closedBy, record.closeReason) = (tombstone.closedBy, tombstone.closeReason)
                let steps = record.ladder.close(at: tombstone.closedAt)
                clears = LadderJobs.jobs(for: steps, record: &record, members: &members, now: now, context: context)
            }
            let admitted = try LadderStore.admit(
                db, [first] + clears, incident: event.incident, targets: targets, now: now)
            if var head = admitted.first, head.event.id == first.event.id {
                head.then = Array(admitted.dropFirst())
                outcome.jobs = [head]
            } else {
                outcome.jobs = admitted
            }
            let revision = try LadderStore.save(db, record, members, settings: settings, now: now)
            outcome.states = [Published(revision: revision, state: record.state(members: members))]
            return outcome
        }
    }

    /// Every step that fell due by `now`, of every open ladder.
    public func advance(to now: Double) async throws -> Outcome {
        try await ledger.write { [self] db in
            var outcome = Outcome()
            for incident in try LadderStore.due(db, now: now) {
                try step(db, incident, now: now, into: &outcome) { record, members in
                    let steps = record.ladder.advance(to: now, settings: settings)
                    return LadderJobs.jobs(for: steps, record: &record, members: &members, now: now, context: context)
                }
            }
            return outcome
        }
    }

    /// The watchdog's word on an incident: `closed` ends its ladder (one all-clear to everyone
    /// told, saying who closed it: the walker, or the desk and why); a duress seen while open keeps
    /// the device out of everything after. Repeats do nothing.
    public func incident(_ state: IncidentState, now: Double) async throws -> Outcome {
        try await ledger.write { [self] db in
            var outcome = Outcome()
            guard let (record, _) = try LadderStore.load(db, incident: state.incident) else {
                if state.state == .closed {
                    try LadderStore.bury(db, state, closedAt: state.closedAt ?? now)
                }
                return outcome
            }
            switch state.state {
            case .closed where !record.ladder.isClosed:
                try step(db, state.incident, now: now, into: &outcome) { record, members in
                    record.duress = record.duress || state.duress
                    (record.closedBy, record.closeReason) = (state.closedBy, state.closeReason)
                    let steps = record.ladder.close(at: state.closedAt ?? now)
                    return LadderJobs.jobs(for: steps, record: &record, members: &members, now: now, context: context)
                }
            case .open where state.duress && !record.duress:
                try step(db, state.incident, now: now, into: &outcome) { record, _ in
                    record.duress = true
                    return []
                }
            default:
                break
            }
            return outcome
        }
    }

    /// States of every open ladder, to publish again at start.
    public func openStates() async throws -> [Published] {
        try await ledger.read { db in
            try LadderStore.openIncidents(db).compactMap { incident in
                try LadderStore.load(db, incident: incident).map { record, members in
                    let revision =
                        try Int.fetchOne(
                            db, sql: "SELECT revision FROM ladder WHERE incident = ?", arguments: [incident])
                        ?? 0
                    return Published(revision: revision, state: record.state(members: members))
                }
            }
        }
    }

    /// The earliest deadline of the open ladders.
    public func nextDeadline() async throws -> Double? {
        try await ledger.read { db in try LadderStore.nextDeadline(db) }
    }
}
