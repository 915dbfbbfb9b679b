import Foundation
import SafeWalkCore

/// The lines of `safewalk watch`: `HH:mm:ss walker  KIND  text`, coloured when `style` says so.
/// Phone numbers never appear in full (delivery recipients are masked).
public struct WatchFormatter: Sendable {
    public let style: Style
    public let timeZone: TimeZone
    /// Show position updates (every fix; noisy).
    public let showPositions: Bool

    public init(style: Style, timeZone: TimeZone = .current, showPositions: Bool = false) {
        self.style = style
        self.timeZone = timeZone
        self.showPositions = showPositions
    }

    private var circleText: CircleText { CircleText(timeZone: timeZone) }

    /// The line for one event, or nil if it is not shown.
    public func line(_ event: WatchEvent, walker: WalkerID?, replyBy: EpochSeconds? = nil, now: EpochSeconds) -> String?
    {
        guard let (label, text) = body(event, replyBy: replyBy, now: now) else { return nil }
        let who = walker?.rawValue ?? "-"
        let padded = label.padding(toLength: 11, withPad: " ", startingAt: 0)
        return style.dim(ClockText.time(now, timeZone: timeZone)) + " " + style.bold(who) + "  " + padded + text
    }

    private func body(_ event: WatchEvent, replyBy: EpochSeconds?, now: EpochSeconds) -> (String, String)? {
        let s = style
        switch event {
        case .status(let status):
            return ("STATUS", Self.summary(status, replyBy: replyBy, now: now, style: s))
        case .prompt(let prompt):
            return (
                "PROMPT", s.yellow("check-in due, reply within \(Countdown.format(until: prompt.replyBy, now: now))")
            )
        case .chat(let message):
            return ("CHAT", s.cyan((message.isUser ? "walker: " : "companion: ") + message.text))
        case .reply(let reply):
            return ("REPLY", "walker: " + reply.text + (reply.quickReply == true ? s.dim(" (quick reply)") : ""))
        case .action(let action):
            return ("ACTION", ActionText.describe(action))
        case .actionResult(let result):
            let text = ActionText.outcome(result) + (result.id.map { s.dim(" id \(ActionText.shortID($0))") } ?? "")
            return ("ANSWER", result.ok ? s.green(text) : s.red(text))
        case .inputRefusal(let refusal):
            return ("REFUSED", s.yellow(ActionText.refusal(refusal)))
        case .presence(.online):
            return ("DEVICE", s.green("online"))
        case .presence(.offline):
            return ("DEVICE", s.yellow("offline"))
        case .presence(.background):
            // The web app's page is hidden: the device is there, its location paused.
            return ("DEVICE", s.cyan("app in the background"))
        case .position(let update):
            guard showPositions else { return nil }
            return (
                "POSITION",
                s.dim(
                    String(format: "%.5f,%.5f ±%.0f m", update.fix.lat, update.fix.lon, update.fix.acc ?? -1)
                        + (update.moved
                            ? " moved" : " still, since \(ClockText.time(update.lastMovedAt, timeZone: timeZone))"))
            )
        case .escalation(let event):
            let walk = event.walk.map { ", walk to \($0.destination)" } ?? ""
            let fix = event.lastFix == nil ? ", no known position" : ""
            // Walkers cannot read escalations (mosquitto/acl), so naming a duress here shows it
            // to operators only, never on the walker's device.
            let duress = event.duress ? ", DURESS" : ""
            let note = event.note.map { " \"\($0)\"" } ?? ""
            return (
                "ESCALATE",
                s.red("\(event.reason.rawValue) (\(event.level.rawValue))\(duress)\(walk)\(fix)\(note)")
                    + s.dim(" id \(event.id)")
            )
        case .alert(let alert):
            let actions = alert.actions.map { "[\($0.title) → \(Self.scheme($0.url))]" }.joined(separator: " ")
            return ("ALERT", s.magenta(alert.title + ": " + alert.body) + (actions.isEmpty ? "" : " " + actions))
        case .delivery(let receipt):
            let outcome = receipt.status == .sent ? s.green("sent") : s.red("failed")
            let why = receipt.reason.map { " (\($0))" } ?? ""
            return (
                "DELIVERY",
                "\(receipt.channel) → \(PhoneNumber.masked(receipt.recipient)): \(outcome)\(why)"
                    + s.dim(", attempt \(receipt.attempts)")
            )
        case .contacts(let count):
            return ("CONTACTS", count == 0 ? "no contacts" : "\(count) contact\(count == 1 ? "" : "s")")
        case .contactsResult(let result):
            switch result.outcome {
            case .ok: return ("CONTACTS", s.green("\(result.operation.rawValue) ok"))
            case .failed(let message): return ("CONTACTS", s.red("\(result.operation.rawValue) failed: \(message)"))
            }
        case .service(let name, let presence):
            return ("SERVICE", "\(name) " + (presence == .online ? s.green("online") : s.red("offline")))
        case .rejection(let rejection):
            return (
                "REJECTED",
                s.yellow("\(rejection.service) rejected a \(rejection.topicKind.rawValue): \(rejection.reason)")
            )
        case .unreadable(let kind, let reason):
            return ("UNREADABLE", s.yellow("\(kind.rawValue): \(reason)"))
        case .circleResult(let result):
            let text = CircleText.result(result) + (result.id.map { s.dim(" id \(ActionText.shortID($0))") } ?? "")
            return ("CIRCLE", result.ok ? s.green(text) : s.red(text))
        case .circle(let view):
            return ("CIRCLE", view.map { circleText.compact($0, now: now) } ?? s.yellow("no circle (cleared)"))
        case .inbox(let event):
            let text = circleText.event(event)
            return ("INBOX", event.type == .alert ? s.red(text) : event.type == .allClear ? s.green(text) : text)
        case .shared(let other, let view):
            let text = circleText.shared(view, of: other)
            return ("SHARED", view == nil ? s.dim(text) : s.magenta(text))
        case .unreadableShared(let other, let reason):
            return ("UNREADABLE", s.yellow("shared/\(other): \(reason)"))
        }
    }

    /// `SAFE next check-in in 00:42`, `CHECKING reply in 01:42`, `ALERT noReply (amber) since 12:03:04`.
    public static func summary(_ status: WatchStatus, replyBy: EpochSeconds?, now: EpochSeconds, style: Style) -> String
    {
        var parts: [String] = []
        switch status.state {
        case .safe:
            parts.append(style.green("SAFE"))
            if !status.watching { parts.append("not watching") }
            if let next = status.nextCheckInAt {
                parts.append("next check-in in \(Countdown.format(until: next, now: now))")
            }
        case .checking:
            parts.append(style.yellow("CHECKING"))
            if let replyBy {
                parts.append("reply within \(Countdown.format(until: replyBy, now: now))")
            } else {
                parts.append("waiting for a reply for \(Countdown.format(remaining: now - status.since))")
            }
        case .alert:
            let why = [status.reason?.rawValue, status.level.map { "(\($0.rawValue))" }].compactMap { $0 }.joined(
                separator: " ")
            parts.append(style.red("ALERT" + (why.isEmpty ? "" : " " + why)))
            parts.append("for \(Countdown.format(remaining: now - status.since))")
        }
        if let walk = status.walk {
            parts.append("walk to \(walk.destination), ETA in \(Countdown.format(until: walk.eta, now: now))")
        }
        return parts.joined(separator: " · ")
    }

    /// `tel:`, `sms:`, `https:`: what kind of action, without the numbers.
    static func scheme(_ url: String) -> String {
        url.split(separator: ":", maxSplits: 1).first.map { "\($0):" } ?? url
    }
}
