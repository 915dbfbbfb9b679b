import Foundation
import SafeWalkCore

/// The sentences inbox events carry, so every app shows the same words.
enum InboxText {
    static func followRequest(_ from: WalkerID) -> String { "\(from) wants to follow you." }
    static func followAccepted(_ by: WalkerID) -> String { "\(by) accepted: you follow \(by) now." }
    static func followDenied(_ by: WalkerID) -> String { "\(by) did not accept your request to follow them." }
    static func checkInRequest(_ from: WalkerID) -> String { "\(from) asks: are you OK? Tap to check in." }
    static func checkedIn(_ user: WalkerID, at: EpochSeconds) -> String {
        "\(user) checked in safe at \(clock(at))."
    }
    static func homeSafe(_ user: WalkerID, at: EpochSeconds) -> String { "\(user) is home safe (\(clock(at)))." }

    static func alert(_ walker: WalkerID, _ incident: IncidentState) -> String {
        let level = incident.level == .red ? "red" : "amber"
        return "\(walker) needs help (\(describe(incident.reason)), \(level)). You are one of their SOS contacts."
    }

    static func acknowledged(_ walker: WalkerID, by: String) -> String { "\(by) is on it for \(walker)." }
    static func allClear(_ walker: WalkerID, at: EpochSeconds) -> String { "\(walker) is safe (at \(clock(at)))." }
    static func lastKnown(_ user: WalkerID) -> String {
        "\(user) has not checked in. Their last known position is shown because they allow it for SOS contacts."
    }
    static func seen(by viewer: WalkerID, at: EpochSeconds) -> String {
        "\(viewer) was shown your last known position at \(clock(at)), after you missed their check-in request."
    }
    static let circleNotAlerted =
        "Nobody in your circle was alerted: you have no SOS contacts. Your phone contacts and the emergency call still work."

    static func describe(_ reason: EscalationReason) -> String {
        switch reason {
        case .noReply: "no reply to check-ins"
        case .noMovement: "not moving"
        case .walkOverdue: "walk overdue"
        case .needHelp: "asked for help"
        case .panic: "panic"
        case .trackerOffline: "phone offline"
        case .wrongPin: "wrong PINs"
        }
    }

    /// `14:05 UTC`, as the live page writes it; the event's `at` lets an app show local time.
    static func clock(_ at: EpochSeconds) -> String { UTCClockText.hoursAndMinutes(at) }
}
