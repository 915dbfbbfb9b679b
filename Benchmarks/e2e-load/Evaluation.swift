import Foundation
import SafeWalkCore

/// What a run means: latencies from each due deadline, escalations missed or duplicated,
/// deliveries per contact, fixes acknowledged against fixes stored. Pure over the collected data.
struct Evaluation: Sendable {
    var due = 0
    var escalated = 0
    var missed = 0
    var duplicated = 0
    var falseAlarms = 0
    var reasons: [String: Int] = [:]
    var alertMissing = 0
    var alertDuplicated = 0
    /// Alerts that repeat one escalation id (a notifier killed between sending and recording
    /// one sends it again; the device shows one alert per id, docs/CONTRACT.md): printed, and
    /// not counted as duplicates.
    var alertRepeats = 0
    /// Escalations whose alert and every contact's SMS arrived exactly once.
    var deliveredExactlyOnce = 0
    /// Distinct escalation ids seen, for every walker.
    var escalationIDs = 0
    /// Escalations the observer knows only from the walker's alert, which carries the
    /// escalation's id: its copy of `{w}/escalation` never reached the observer's session (the
    /// NATS cluster lost one after a partition healed). Printed; the escalation still counts.
    var knownOnlyFromAlert = 0
    var smsExpected = 0
    var smsDelivered = 0
    var smsMissing = 0
    var smsDuplicated = 0
    /// Of `smsDuplicated`, the texts the notifier logged sending again after an interrupted
    /// attempt (a SIGKILL between the gateway's answer and the ledger's `sent`): the documented
    /// at-least-once window, printed and not counted against `clean`. Any other is.
    var smsResentAfterCrash = 0
    /// All-clear texts (issue 18): a walker whose incident ended (the run's final `stop` ends the
    /// false alarms') has each contact told once that they are safe. Not alerts: counted apart,
    /// and a second all-clear to one contact is a duplicate.
    var smsAllClears = 0
    var toAlert: [Double] = []
    var toEscalation: [Double] = []
    var toDecision: [Double] = []
    var toSMS: [Double] = []
    var fixesAcked = 0
    var fixesStored = 0
    var fixesLost = 0
    var ingestedPerSecond = 0.0
    var offeredPerSecond = 0.0

    /// Fault steps that failed (``LoadRun/Raw/faultsFailed``): the run did not test its case.
    var faultsFailed: [String] = []

    var clean: Bool {
        faultsFailed.isEmpty && missed == 0 && duplicated == 0 && alertMissing == 0 && alertDuplicated == 0
            && smsMissing == 0
            && smsDuplicated <= smsResentAfterCrash && fixesLost == 0
    }

    /// The notifier's all-clear: "{walker} is safe (at 21:14). Thank you." (docs/services/notifier.md).
    static func isAllClear(_ text: String) -> Bool { text.contains(" is safe (at ") && text.hasSuffix("Thank you.") }

    init(_ raw: LoadRun.Raw) {
        let plan = raw.plan
        let r = raw.observed
        let resent = Dictionary(grouping: raw.smsResentAfterCrash, by: { $0 }).mapValues(\.count)
        faultsFailed = raw.faultsFailed
        for n in 0..<plan.walkers {
            let silent = plan.silenceOffset(of: n) != nil
            let seen = Set((r.escalations[n] ?? []).map(\.id))
            let ids = Self.escalationIDs(seen: seen, alerts: (r.alerts[n] ?? []).map(\.id))
            knownOnlyFromAlert += ids.count - seen.count
            if silent { due += 1 }
            escalationIDs += ids.count
            if silent, ids.isEmpty { missed += 1 }
            if !ids.isEmpty { escalated += 1 }
            if ids.count > 1 { duplicated += ids.count - 1 }
            if !silent { falseAlarms += ids.count }
            // Exactly one alert and one text per contact for every distinct escalation.
            let received = (r.alerts[n] ?? []).map(\.id)
            let alerts = Self.distinctAlerts(received)
            alertRepeats += received.count - alerts
            alertMissing += max(0, ids.count - alerts)
            alertDuplicated += max(0, alerts - ids.count)
            var firstTexts: [Double] = []
            var exact = !ids.isEmpty && alerts == ids.count
            var walkerTextDuplicates = 0
            for k in 0..<plan.contacts {
                let phone = LoadPlan.phone(walker: n, contact: k, contacts: plan.contacts).normalised
                let allClears = (raw.sms.bodies[phone] ?? []).filter(Self.isAllClear).count
                smsAllClears += allClears
                smsDuplicated += max(0, allClears - 1)
                let accepted = (raw.sms.accepted[phone] ?? 0) - allClears
                smsExpected += ids.count
                smsDelivered += accepted
                smsMissing += max(0, ids.count - accepted)
                let extraTexts = max(0, accepted - ids.count)
                smsDuplicated += extraTexts
                walkerTextDuplicates += extraTexts
                if accepted != ids.count { exact = false }
                if let t = raw.sms.times?[phone]?.first { firstTexts.append(t) }
            }
            smsResentAfterCrash += min(walkerTextDuplicates, ids.reduce(0) { $0 + (resent[$1] ?? 0) })
            if exact { deliveredExactlyOnce += ids.count }
            guard silent, let first = r.escalations[n]?.min(by: { $0.received < $1.received }) else { continue }
            reasons[first.reason.rawValue, default: 0] += 1
            guard
                let deadline = Self.deadline(
                    for: first, prompts: r.prompts[n] ?? [], lastFix: raw.lastFixTst[n],
                    thresholds: plan.thresholds)
            else { continue }
            toDecision.append(first.at - deadline)
            toEscalation.append(first.received - deadline)
            if let alert = r.alerts[n]?.map(\.received).min() { toAlert.append(alert - deadline) }
            if firstTexts.count == plan.contacts, let last = firstTexts.max() { toSMS.append(last - deadline) }
        }
        for n in 0..<plan.walkers {
            let acked = raw.ackedPerWalker[n]
            let stored = raw.storedPerWalker[LoadPlan.walkerID(n)] ?? 0
            fixesAcked += acked
            fixesStored += stored
            fixesLost += max(0, acked - stored)
        }
        let window = raw.windowEnd.at - raw.windowStart.at
        ingestedPerSecond = Double(raw.windowEnd.stored - raw.windowStart.stored) / window
        offeredPerSecond = Double(raw.windowEnd.acked - raw.windowStart.acked) / window
    }

    /// A walker's escalations: the ids seen on `{w}/escalation`, and those of the alerts, each of
    /// which the notifier made from an escalation it received.
    static func escalationIDs(seen: Set<String>, alerts: [String?]) -> Set<String> {
        seen.union(alerts.compactMap { $0 })
    }

    /// Alerts as the device shows them: one per escalation id; each alert without an id counts.
    static func distinctAlerts(_ ids: [String?]) -> Int {
        Set(ids.compactMap { $0 }).count + ids.filter { $0 == nil }.count
    }

    /// The deadline the escalation answers: `replyBy` of the last prompt before it (noReply), or
    /// the last fix plus the no-movement threshold (noMovement; every fix of ours is movement).
    static func deadline(
        for e: Observer.Escalation, prompts: [Observer.Prompt], lastFix: Double,
        thresholds: Thresholds
    ) -> Double? {
        switch e.reason {
        case .noReply: prompts.filter { $0.at <= e.at }.max(by: { $0.at < $1.at })?.replyBy
        case .noMovement: lastFix + thresholds.noMovement
        default: nil
        }
    }
}
