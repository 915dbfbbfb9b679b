import Logging
import SafeWalkCore

/// A structured log line per escalation: who, why, how many contacts, masked numbers only.
/// The message text is not logged: it holds a Maps link to the walker's exact position.
public struct LogChannel: NotificationChannel {
    public let name = "log"
    let logger: Logger

    public init(logger: Logger) { self.logger = logger }

    public func targets(for plan: DeliveryPlan) -> [DeliveryTarget] {
        [DeliveryTarget(key: "log", display: "log")]
    }

    public func send(_ target: DeliveryTarget, plan: DeliveryPlan, event: EscalationEvent) async throws(ChannelFailure)
    {
        logger.notice("escalation", metadata: Self.metadata(plan: plan, event: event))
    }

    /// The line's fields: phone numbers only masked, no message text, no coordinates.
    public static func metadata(plan: DeliveryPlan, event: EscalationEvent) -> Logger.Metadata {
        [
            "escalation": "\(event.id)", "walker": "\(event.walker)", "reason": "\(event.reason.rawValue)",
            "level": "\(event.level.rawValue)", "urgency": "\(plan.urgency.rawValue)",
            "positionKnown": "\(event.lastFix != nil)",
            "recipients": .array(plan.recipients.map { .string(PhoneNumber.masked($0.phone)) }),
            "undialable": .array(plan.undialable.map { .string("\($0.masked) (\($0.reason.rawValue))") }),
        ]
    }
}
