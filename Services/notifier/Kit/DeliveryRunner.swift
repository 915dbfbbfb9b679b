import Foundation
import Logging
import Metrics
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService

/// Delivers one admitted escalation: every (channel, target) on its own, concurrently, so a
/// slow or failing recipient never holds up another, and the device alert goes out at once.
///
/// Per target: record `attempting` → one attempt → record `sent` (or `pending` and back off,
/// or `failed`) → publish the receipt → record it receipted. The only window in which a message
/// can go twice is between a successful send and the `sent` record (one local SQLite commit):
/// if the process dies there, the restart finds `attempting`, cannot know, and sends again,
/// because silence is the worse failure for a safety alert.
public struct DeliveryRunner: Sendable {
    let ledger: DeliveryLedger
    let channels: [String: any NotificationChannel]
    let policy: RetryPolicy
    let clock: any NotifierClock
    let bus: any MessageBus
    let prefix: String
    let logger: Logger

    public init(
        ledger: DeliveryLedger, channels: [any NotificationChannel], policy: RetryPolicy,
        clock: any NotifierClock, bus: any MessageBus, prefix: String, logger: Logger
    ) {
        self.ledger = ledger
        self.channels = Dictionary(channels.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.policy = policy
        self.clock = clock
        self.bus = bus
        self.prefix = prefix
        self.logger = logger
    }

    /// Runs (or resumes) every unfinished target of an admitted escalation until each is final.
    /// Returns early, leaving progress in the ledger, when the task is cancelled.
    public func run(_ event: EscalationEvent, plan: DeliveryPlan) async {
        let rows: [DeliveryLedger.Progress]
        do {
            rows = try await ledger.progress(of: event.id)
        } catch {
            logger.error("ledger unreadable", metadata: ["escalation": "\(event.id)", "error": "\(error)"])
            return
        }
        await withDiscardingTaskGroup { group in
            for row in rows where !(row.receipted && (row.state == .sent || row.state == .failed)) {
                group.addTask { await deliver(row, event: event, plan: plan) }
            }
        }
        do {
            if try await ledger.finishIfComplete(event.id) {
                logger.info(
                    "escalation delivered", metadata: ["escalation": "\(event.id)", "walker": "\(event.walker)"])
            }
        } catch {
            // Left unfinished in the ledger: the next start resumes it and finds every target final.
            SwallowedErrors.record(
                error, service: .notifier, site: "ledger_finish", message: "ledger write failed", logger: logger,
                metadata: ["escalation": "\(event.id)"])
        }
    }

    private func deliver(_ row: DeliveryLedger.Progress, event: EscalationEvent, plan: DeliveryPlan) async {
        var row = row
        if row.state != .sent && row.state != .failed {
            guard let outcome = await attempt(row, event: event, plan: plan) else { return }  // cancelled
            row.state = outcome.state
            row.attempts = outcome.attempts
            row.reason = outcome.reason
        }
        await publishReceipt(row, event: event, plan: plan)
    }

    private struct Outcome { var state: DeliveryLedger.State; var attempts: Int; var reason: String? }

    /// Attempts until sent or failed; nil when cancelled (the ledger keeps the progress).
    private func attempt(_ row: DeliveryLedger.Progress, event: EscalationEvent, plan: DeliveryPlan) async -> Outcome? {
        let (id, key, name) = (event.id, row.target.key, row.channel)
        let meta: Logger.Metadata = ["escalation": "\(id)", "channel": "\(name)", "recipient": "\(row.target.display)"]
        func finish(_ state: DeliveryLedger.State, _ attempts: Int, _ reason: String?) async -> Outcome? {
            do {
                try await ledger.record(state, reason: reason, id, channel: name, key: key, now: clock.now())
            } catch {
                logger.error("ledger write failed", metadata: meta.merging(["error": "\(error)"]) { $1 })
            }
            Counter(
                label: "safewalk_notifier_deliveries_total",
                dimensions: [("channel", name), ("status", state.rawValue)]
            ).increment()
            return Outcome(state: state, attempts: attempts, reason: reason)
        }
        if let refusal = row.target.refusal { return await finish(.failed, 0, refusal) }
        guard let channel = channels[name] else {
            return await finish(.failed, row.attempts, "channel \(name) is not enabled")
        }
        if row.state == .pending, row.attempts >= policy.maxAttempts {
            return await finish(.failed, row.attempts, row.reason ?? "no attempts left")
        }
        if row.state == .attempting {
            // The documented window: a send started before a crash and its outcome was never
            // recorded. Sending again risks a duplicate; not sending risks silence.
            logger.notice("resending after an interrupted attempt", metadata: meta)
        }
        while !Task.isCancelled {
            let attempt: Int
            do {
                attempt = try await ledger.beginAttempt(id, channel: name, key: key, now: clock.now())
            } catch {
                logger.error("ledger write failed", metadata: meta.merging(["error": "\(error)"]) { $1 })
                return nil
            }
            do throws(ChannelFailure) {
                try await channel.send(row.target, plan: plan, event: event)
                return await finish(.sent, attempt, nil)
            } catch {
                let reason = error.reason
                guard case .transient = error else {
                    logger.warning("delivery failed", metadata: meta.merging(["reason": "\(reason)"]) { $1 })
                    return await finish(.failed, attempt, reason)
                }
                guard policy.allowsAnother(after: attempt) else {
                    logger.warning(
                        "delivery failed",
                        metadata: meta.merging(["reason": "\(reason)", "attempts": "\(attempt)"]) { $1 })
                    return await finish(.failed, attempt, "\(reason) (after \(attempt) attempts)")
                }
                do {
                    try await ledger.record(.pending, reason: reason, id, channel: name, key: key, now: clock.now())
                } catch {
                    // The row stays `attempting`; the retry below (or a restart) re-sends, as documented.
                    SwallowedErrors.record(
                        error, service: .notifier, site: "ledger_pending", message: "ledger write failed",
                        logger: logger, metadata: meta)
                }
                let wait = policy.delay(afterAttempt: attempt, random: clock.random())
                logger.info(
                    "delivery will be retried",
                    metadata: meta.merging(["reason": "\(reason)", "attempt": "\(attempt)", "wait": "\(wait)"]) { $1 })
                do { try await clock.sleep(seconds: wait) } catch { return nil }
            }
        }
        return nil
    }

    private func publishReceipt(_ row: DeliveryLedger.Progress, event: EscalationEvent, plan: DeliveryPlan) async {
        let receipt = DeliveryReceipt(
            escalationId: event.id, channel: row.channel, recipient: row.target.display,
            status: row.state == .sent ? .sent : .failed, reason: row.reason, attempts: row.attempts, at: clock.now())
        do {
            // Receipts of a duress escalation stay in the ledger and the log: `{w}/delivery` is
            // readable by the walker's phone, and someone may be watching it.
            // A ladder step's receipts stay off it too: the all-clear after a cancel would
            // otherwise tell the phone what the silence after a duress PIN does not.
            if DeviceDisclosure.mayTellDevice(about: event) && plan.receiptsOnDevice {
                let payload = try SafeWalkJSON.encode(receipt)
                try await bus.publish(
                    Topic.delivery(event.walker).name(prefix: prefix), payload: payload,
                    qos: .atLeastOnce)
            } else {
                logger.info(
                    "receipt kept off the device (duress)",
                    metadata: [
                        "escalation": "\(event.id)", "channel": "\(row.channel)",
                        "status": "\(receipt.status.rawValue)",
                    ])
            }
            try await ledger.markReceipted(event.id, channel: row.channel, key: row.target.key)
        } catch {
            // Left un-receipted in the ledger: the next start publishes it.
            logger.warning("receipt not published", metadata: ["escalation": "\(event.id)", "error": "\(error)"])
        }
    }
}
