import Foundation
import SafeWalkCore

/// Which messages become pushes, and what they say: only what the walker's own device is sent
/// (`{w}/prompt`'s check-in, `{w}/alert`, `{w}/inbox`), never a services-only topic. Everything
/// that reaches those topics already went through `DeviceDisclosure` (the watchdog, the notifier
/// and the circle owner decide there what a device may learn), so a push can never tell a phone
/// more than its own app would show: after a duress PIN the phone gets exactly the pushes it would
/// get after a cancel.
public enum PushTriggers {
    public static let checkInTitle = "SafeWalk: check in — are you okay?"
    /// Inbox events older than this are not pushed: `op: inbox` sends the whole inbox again (the
    /// same ids), and a phone must not light up with last week's follow requests.
    public static let inboxFreshness: Double = 600

    public enum Input: Sendable {
        case prompt(CheckInPrompt)
        case alert(DeviceAlert)
        case inbox(InboxEvent)
    }

    /// The push for one message, or nil when it gets none.
    public static func message(for input: Input, now: EpochSeconds) -> PushMessage? {
        switch input {
        case .prompt(let prompt):
            // Worth delivering only until the check-in escalates by itself.
            let ttl = Int((prompt.replyBy - now).rounded(.up))
            guard ttl > 0 else { return nil }
            return PushMessage(
                title: checkInTitle, body: "Tap to tell SafeWalk you're okay.", tag: "checkin", urgency: .high,
                ttl: ttl)
        case .alert(let alert):
            // The notifier's alert to the walker (help on its way, "Mum is on it").
            return PushMessage(title: alert.title, body: alert.body, tag: "alert", urgency: .high, ttl: 3_600)
        case .inbox(let event):
            guard now - event.at <= inboxFreshness else { return nil }
            return PushMessage(
                title: inboxTitle(event), body: event.text, tag: "inbox-\(event.type.rawValue)-\(event.from)",
                urgency: isUrgent(event.type) ? .high : .normal, ttl: isUrgent(event.type) ? 3_600 : 86_400)
        }
    }

    /// Someone's safety is at stake: wake the phone.
    static func isUrgent(_ kind: InboxEvent.Kind) -> Bool {
        switch kind {
        case .alert, .ack, .allClear, .lastKnown, .circleNotAlerted, .checkInRequest: true
        case .followRequest, .followAccepted, .followDenied, .checkedIn, .homeSafe, .seen: false
        }
    }

    static func inboxTitle(_ event: InboxEvent) -> String {
        switch event.type {
        case .alert: "SafeWalk: \(event.from) needs help"
        case .ack: "SafeWalk: someone is on it"
        case .allClear: "SafeWalk: \(event.from) is safe"
        case .checkInRequest: "SafeWalk: \(event.from) asks you to check in"
        case .lastKnown: "SafeWalk: \(event.from) did not check in"
        case .circleNotAlerted: "SafeWalk: nobody in your circle was alerted"
        case .followRequest, .followAccepted, .followDenied, .checkedIn, .homeSafe, .seen: "SafeWalk"
        }
    }
}
