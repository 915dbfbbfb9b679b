import Foundation
import SafeWalkCore

/// The plain-words help message sent to contacts: who, why, when, where.
///
/// Example: `SafeWalk URGENT: Alex pressed the panic button and needs help now (21:04).
/// Last known position, 2 min ago: https://maps.google.com/?q=30.285000,-97.735000`
public enum HelpMessage {
    /// Builds the message for an escalation. Clock times are shown as 24-hour `HH:mm` in
    /// `timeZone`, prefixed with the date (`yyyy-MM-dd`) when not on `now`'s day; the age
    /// of the last fix is measured from `now`.
    public static func text(
        name: String, reason: EscalationReason, level: EscalationLevel, at: EpochSeconds,
        lastFix: FixSummary?, walk: WalkPlan?, now: EpochSeconds, timeZone: TimeZone
    ) -> String {
        let clock = ClockText(now: now, timeZone: timeZone)
        let header = level == .red ? "SafeWalk URGENT" : "SafeWalk alert"
        let sentence = why(name: name, reason: reason, level: level, walk: walk, clock: clock)
        var parts = ["\(header): \(sentence) (\(clock.time(at)))."]
        if let walk, reason != .walkOverdue {
            parts.append("Walking to \(walk.destination), expected \(clock.time(walk.eta)).")
        }
        if let lastFix, let link = EscalationLinks.maps(lastFix.coordinate) {
            parts.append("Last known position, \(age(now - lastFix.tst)): \(link)")
        } else {
            parts.append("Last position unknown.")
        }
        return parts.joined(separator: " ")
    }

    /// The message for an event.
    /// The message for an event; the walker's preset note, if any, follows the sentence.
    public static func text(for event: EscalationEvent, name: String, now: EpochSeconds, timeZone: TimeZone) -> String {
        let message = text(
            name: name, reason: event.reason, level: event.level, at: event.at,
            lastFix: event.lastFix, walk: event.walk, now: now, timeZone: timeZone)
        guard let note = event.note else { return message }
        return message + " \(name) says: \"\(note)\""
    }

    static func why(
        name: String, reason: EscalationReason, level: EscalationLevel, walk: WalkPlan?, clock: ClockText
    ) -> String {
        switch reason {
        case .noReply: "\(name) did not answer a safety check-in"
        case .noMovement: "\(name) has not moved for a while during a watched walk"
        case .walkOverdue:
            if let walk {
                "\(name) has not arrived at \(walk.destination), expected by \(clock.time(walk.eta))"
            } else {
                "\(name) has not arrived when expected"
            }
        case .needHelp: "\(name) asked for help"
        case .panic:
            level == .red
                ? "\(name) pressed the panic button and needs help now"
                : "\(name) pressed the panic button: please keep an eye on them"
        case .trackerOffline: "\(name)'s phone went offline during a watched walk"
        case .wrongPin: "\(name)'s alert could not be cancelled: the PIN was wrong several times"
        }
    }

    static func age(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 60 else { return "under a minute ago" }
        let minutes = Int(min(seconds, 1e9) / 60)
        if minutes < 60 { return "\(minutes) min ago" }
        return "\(minutes / 60) h \(minutes % 60) min ago"
    }
}

/// Formats clock times in one time zone relative to "now".
struct ClockText {
    let now: EpochSeconds
    let calendar: Calendar

    init(now: EpochSeconds, timeZone: TimeZone) {
        self.now = now
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// `HH:mm`, or `yyyy-MM-dd HH:mm` when `time` falls on another day than `now`.
    func time(_ time: EpochSeconds) -> String {
        guard time.isFinite, abs(time) < 1e11 else { return "an unknown time" }
        let date = Date(timeIntervalSince1970: time)
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let clock = pad(c.hour) + ":" + pad(c.minute)
        if calendar.isDate(date, inSameDayAs: Date(timeIntervalSince1970: now)) { return clock }
        return "\(c.year ?? 0)-\(pad(c.month))-\(pad(c.day)) \(clock)"
    }

    private func pad(_ value: Int?) -> String {
        let value = value ?? 0
        return value < 10 ? "0\(value)" : "\(value)"
    }
}
