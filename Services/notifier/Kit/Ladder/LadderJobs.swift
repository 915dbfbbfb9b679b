import Foundation
import SafeWalkCore

/// One delivery job a ladder step makes, admitted into the ledger like an escalation and run by
/// the ``DeliveryRunner`` (so it is retried, receipted and resumed after a restart like one).
public struct LadderJob: Hashable, Sendable {
    public var event: EscalationEvent
    public var plan: DeliveryPlan
    /// Jobs to run only once this one is delivered: an all-clear must not overtake the alert it
    /// clears (an incident closed before its escalation arrived).
    public var then: [LadderJob] = []
}

/// What the pure ladder rules need from outside: words and fresh references.
public struct LadderContext: Sendable {
    public var emergency: EmergencyNumber
    public var timeZone: TimeZone
    /// The monitoring desk's name ("the campus desk"), for its acknowledgements and closes.
    public var desk: String
    /// A fresh random reference for one text's status callback.
    public var newRef: @Sendable () -> String

    public init(
        emergency: EmergencyNumber, timeZone: TimeZone, desk: String = DeskName.default,
        newRef: @escaping @Sendable () -> String
    ) {
        self.emergency = emergency
        self.timeZone = timeZone
        self.desk = desk
        self.newRef = newRef
    }
}

/// Turns ladder steps into delivery jobs, purely: who is told, on which channel, with what words,
/// under which job id. The shell runs this inside the transaction that stores the ladder.
public enum LadderJobs {
    static let sms = "sms-http"
    static let webhook = "webhook"

    /// Everyone an incident may reach, fixed when its ladder is created: dialable contacts (by
    /// their tier), and the dispatch webhook when it is enabled. Each gets a page token.
    public static func members(
        contacts: [Contact], webhook: Bool, webhookTier: LadderTier, mint: () -> String
    ) -> [LadderMember] {
        let (dialable, _) = PlanBuilder.sort(contacts)
        var members = dialable.map { recipient in
            let tier = contacts.first { $0.id == recipient.contactID }?.ladderTier == 2 ? LadderTier.backups : .first
            return LadderMember(
                key: recipient.phone, name: recipient.name, tier: tier, channel: sms, address: recipient.phone,
                token: mint(), fallbacks: 0)
        }
        if webhook {
            members.append(
                LadderMember(
                    key: LadderMember.dispatchKey, name: "dispatch", tier: webhookTier, channel: Self.webhook,
                    token: mint(), fallbacks: 0))
        }
        return members
    }

    /// The job of the incident's first escalation, under its own id: tier 1's contacts (and the
    /// undialable ones among them, so the walker hears why), the device alert, the log, and the
    /// webhook when dispatch is in tier 1.
    static func first(
        record: inout LadderRecord, members: inout [LadderMember], contacts: [Contact], now: EpochSeconds,
        context: LadderContext
    ) -> LadderJob {
        let tierOne = contacts.filter { $0.ladderTier == 1 }
        var plan = PlanBuilder.plan(
            for: record.event, contacts: tierOne, emergency: context.emergency, now: now, timeZone: context.timeZone)
        let told = tell(members: &members, tiers: [.first], now: now)
        record.note(.opened, "\(record.walker) needs help (\(record.event.reason.rawValue))", at: now)
        noteTold(&record, members, told, now: now)
        plan.channels = ["device", "log", sms] + (told.contains(LadderMember.dispatchKey) ? [webhook] : [])
        return finish(
            plan: plan, id: record.event.id, record: record, members: &members, keys: told, code: true, context)
    }

    /// The jobs of a ladder's steps (from ``Ladder/advance(to:settings:)``, `acknowledge` or `close`).
    static func jobs(
        for steps: [Ladder.Step], record: inout LadderRecord, members: inout [LadderMember], now: EpochSeconds,
        context: LadderContext
    ) -> [LadderJob] {
        var jobs: [LadderJob] = []
        let walker = record.walker.rawValue
        for step in steps {
            switch step {
            case .notify(let tier):
                let told = tell(members: &members, tiers: [tier], now: now)
                noteTold(&record, members, told, now: now)
                guard !told.isEmpty else { continue }
                jobs.append(
                    job(
                        "\(record.ladder.incident)#tier\(tier.rawValue)", record: record, members: &members,
                        keys: told, message: nil, code: true, now: now, context))
            case .remind:
                record.note(.reminded, "Everyone told was reminded: nobody has said they are on it", at: now)
                jobs += askEveryoneToldAgain(
                    "remind", opening: "Reminder: nobody has said they are on it yet.", record: &record,
                    members: &members, now: now, context)
            case .resumed:
                record.acknowledgedVia = nil
                record.acknowledgedKey = nil
                record.acknowledgedOperator = nil
                record.note(.resumed, "\(walker) is still not safe: everyone told is asked again", at: now)
                jobs += askEveryoneToldAgain(
                    "resume", opening: "\(walker) is still not safe.", record: &record, members: &members, now: now,
                    context)
            case .acknowledged(let name):
                let words = AcknowledgementWords.of(name: name, operator: record.acknowledgedOperator, walker: walker)
                record.note(.acknowledged, words.entry, at: now)
                let count = (record.counts["ack"] ?? 0) + 1
                record.counts["ack"] = count
                let id = "\(record.ladder.incident)#ack" + (count == 1 ? "" : "\(count)")
                let others = members.filter { $0.isTold && $0.key != record.acknowledgedKey }.map(\.key)
                var job = job(
                    id, record: record, members: &members, keys: others, message: words.handling, code: false,
                    now: now, context)
                tellDevice(words.alert, in: &job, record: record)
                jobs.append(job)
            case .allClear:
                let keys = members.filter(\.isTold).map(\.key)
                let at = ClockText(now: now, timeZone: context.timeZone).time(record.ladder.closedAt ?? now)
                let words = AllClearWords.of(
                    walker: walker, at: at, closedBy: record.closedBy, reason: record.closeReason, desk: context.desk)
                record.note(.allClear, words.entry, at: now)
                // The device's alert rides on the all-clear's job id: a restart or a repeated
                // `closed` can never send it twice.
                let deviceMayKnow = words.alert != nil && DeviceDisclosure.visible(record.facts) != nil
                guard !keys.isEmpty || deviceMayKnow else { continue }
                var job = job(
                    "\(record.ladder.incident)#allclear", record: record, members: &members, keys: keys,
                    message: words.text, code: false, now: now, context)
                if let alert = words.alert { tellDevice(alert, in: &job, record: record) }
                jobs.append(job)
            }
        }
        return jobs
    }

    /// Adds the walker's own phone to `job` with `alert`, only if the one duress-aware rule lets
    /// the device know of the incident: after a duress PIN it is told nothing, whatever happens.
    private static func tellDevice(_ alert: DeviceAlert, in job: inout LadderJob, record: LadderRecord) {
        guard DeviceDisclosure.visible(record.facts) != nil else { return }
        job.plan.channels?.append("device")
        job.plan.alert = alert
    }

    /// A reminder or a resumption: everyone told so far asked again, with the help text and the
    /// reply code, under the next id of `kind`; none when nobody was told.
    private static func askEveryoneToldAgain(
        _ kind: String, opening: String, record: inout LadderRecord, members: inout [LadderMember],
        now: EpochSeconds, _ context: LadderContext
    ) -> [LadderJob] {
        let keys = members.filter(\.isTold).map(\.key)
        guard !keys.isEmpty else { return [] }
        let id = record.nextID(kind)
        return [
            job(
                id, record: record, members: &members, keys: keys,
                message: opening + "\n" + help(record, now, context), code: true, now: now, context)
        ]
    }

    /// amber → red of an open incident: the raising escalation, under its own id, to everyone told
    /// so far (and the device, as any escalation, if it may know).
    static func raise(
        _ event: EscalationEvent, record: inout LadderRecord, members: inout [LadderMember], now: EpochSeconds,
        context: LadderContext
    ) -> LadderJob {
        record.event = event
        record.duress = record.duress || event.duress
        record.ladder.raise(to: event.level)
        record.note(.raised, "Raised to \(event.level.rawValue) (\(event.reason.rawValue))", at: now)
        let keys = members.filter(\.isTold).map(\.key)
        var job = job(
            event.id, record: record, members: &members, keys: keys, message: nil, code: true, now: now, context)
        job.plan.channels?.append("device")
        return job
    }

    /// A failed text to `key`: the next way to reach them (``LadderFallback``), as a job.
    static func fallback(
        for key: String, record: inout LadderRecord, members: inout [LadderMember], now: EpochSeconds,
        context: LadderContext
    ) -> LadderJob? {
        guard let index = members.firstIndex(where: { $0.key == key }) else { return nil }
        let member = members[index]
        let dispatch = members.contains { $0.isDispatch }
        switch LadderFallback.next(afterFailures: member.fallbacks, dispatchConfigured: dispatch) {
        case .none:
            return nil
        case .retryText:
            members[index].fallbacks += 1
            record.note(.fallback, "The text to \(member.name) failed: sending it again", at: now)
            return job(
                record.nextID("fallback"), record: record, members: &members, keys: [key], message: nil, code: true,
                now: now, context)
        case .tellDispatch:
            members[index].fallbacks += 1
            record.note(.fallback, "Could not reach \(member.name): dispatch is told", at: now)
            return job(
                record.nextID("fallback"), record: record, members: &members, keys: [LadderMember.dispatchKey],
                message: "SafeWalk could not reach \(member.name) by text about \(record.walker).\n"
                    + help(record, now, context), code: false, now: now, context)
        }
    }

    // MARK: - Building blocks

    /// Marks everyone of `tiers` not yet told as told now; returns their keys.
    static func tell(members: inout [LadderMember], tiers: Set<LadderTier>, now: EpochSeconds) -> [String] {
        var keys: [String] = []
        for index in members.indices where tiers.contains(members[index].tier) && !members[index].isTold {
            members[index].toldAt = now
            keys.append(members[index].key)
        }
        return keys
    }

    static func noteTold(_ record: inout LadderRecord, _ members: [LadderMember], _ keys: [String], now: EpochSeconds) {
        for member in members where keys.contains(member.key) {
            record.note(.told, "\(member.name) was told" + (member.isDispatch ? "" : " by text"), at: now)
        }
    }

    static func help(_ record: LadderRecord, _ now: EpochSeconds, _ context: LadderContext) -> String {
        HelpMessage.text(for: record.event, name: record.walker.rawValue, now: now, timeZone: context.timeZone)
    }

    /// A job to `keys` (texts to contacts, the webhook to dispatch) with the incident's words,
    /// or `message` instead of the help message.
    static func job(
        _ id: String, record: LadderRecord, members: inout [LadderMember], keys: [String], message: String?,
        code: Bool, now: EpochSeconds, _ context: LadderContext
    ) -> LadderJob {
        let contacts = members.filter { keys.contains($0.key) && !$0.isDispatch }.map {
            Contact(id: $0.key, name: $0.name, phone: $0.address ?? $0.key, dialable: true, reason: nil)
        }
        var plan = PlanBuilder.plan(
            for: record.event, contacts: contacts, emergency: context.emergency, now: now, timeZone: context.timeZone)
        if let message { plan.message = message }
        plan.channels = ["log", sms] + (keys.contains(LadderMember.dispatchKey) ? [webhook] : [])
        return finish(plan: plan, id: id, record: record, members: &members, keys: keys, code: code, context)
    }

    /// Gives each text its recipient's page and a fresh reference, and names the job.
    static func finish(
        plan: DeliveryPlan, id: String, record: LadderRecord, members: inout [LadderMember], keys: [String],
        code: Bool, _ context: LadderContext
    ) -> LadderJob {
        var plan = plan
        plan.escalationId = id
        plan.code = code ? record.code : nil
        plan.recipients = plan.recipients.map { recipient in
            var recipient = recipient
            if let index = members.firstIndex(where: { $0.key == recipient.phone }) {
                let ref = context.newRef()
                recipient.page = members[index].token
                recipient.ref = ref
                members[index].ref = ref
                members[index].receipt = nil  // a new text: the word on the last one no longer stands
            }
            return recipient
        }
        if keys.contains(LadderMember.dispatchKey) {
            plan.dispatchPage = members.first { $0.isDispatch }?.token
        }
        var event = record.event
        event.id = id
        // The runner keeps receipts off `{w}/delivery` for a duress incident, whatever step it is.
        event.duress = record.facts.duress
        plan.hiddenFromDevice = DeviceDisclosure.visible(record.facts) == nil ? true : nil
        // Only the escalations themselves (the first and a raise: ids the device saw escalate)
        // report on `{w}/delivery`; the device is told that contacts were alerted, no more.
        plan.deviceReceipts = id == record.event.id ? nil : false
        return LadderJob(event: event, plan: plan)
    }
}

/// What a failed text leads to: the same text once more (a gateway hiccup), then the dispatch
/// centre told who could not be reached, then nothing (no loop of retries).
public enum LadderFallback: Hashable, Sendable {
    case retryText, tellDispatch, none

    public static func next(afterFailures fallbacks: Int, dispatchConfigured: Bool) -> LadderFallback {
        switch fallbacks {
        case 0: .retryText
        case 1 where dispatchConfigured: .tellDispatch
        default: .none
        }
    }
}
