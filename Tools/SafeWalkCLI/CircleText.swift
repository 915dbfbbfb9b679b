import Foundation
import SafeWalkCore

/// The circle as `safewalk circle` and `safewalk watch` print it (docs/CONTRACT.md, "The
/// circle"). Pure: times are `HH:mm` in `timeZone` (the terminal's), cut from ``ClockText`` as
/// `watch` prints its own; positions to 5 decimals, as `watch --positions` does. Text that came
/// over the wire (a walker's note, the owner's sentences and codes) has its control characters
/// replaced, so nothing received can move the cursor or recolour the terminal.
public struct CircleText: Sendable {
    public let timeZone: TimeZone

    public init(timeZone: TimeZone = .current) {
        self.timeZone = timeZone
    }

    // MARK: answers

    /// The one line `safewalk circle …` prints for the owner's answer to `command`:
    /// `follow request sent to bob`, or `error unknownUser: Nobody called 'bobb' uses SafeWalk.`
    public func answer(to command: CircleCommand, _ result: CircleResult) -> String {
        guard result.ok else { return Self.refusal(result) }
        let user = command.user.map(Self.printable) ?? "?"
        switch command.op {
        case .follow: return "follow request sent to \(user)"
        case .accept: return "\(user) follows you now"
        case .deny: return "denied \(user)'s request to follow you"
        case .unfollow: return "you no longer follow \(user) (or asked to)"
        case .removeFollower: return "\(user) no longer follows you"
        case .sos: return "\(user) is one of your SOS contacts now: your alerts reach them in the app"
        case .unsos: return "\(user) is no longer one of your SOS contacts"
        case .checkInRequest:
            if command.user != nil { return "asked \(user) to check in" }
            return result.count.map { "asked \(Self.people($0)) to check in" }
                ?? "asked everyone you follow to check in"
        case .checkIn: return "checked in: your followers see you are safe"
        case .homeSafe: return "home safe: your followers see it until it expires (12 hours unless set otherwise)"
        case .ack: return "you are on \(user)'s alert: their other SOS contacts are told"
        case .inbox:
            guard let count = result.count else { return "your inbox was sent again" }
            return count == 0 ? "your inbox is empty" : "\(Self.count(count, "event")) in your inbox"
        case .revealOnMissedCheckIn:
            return command.on == true
                ? "reveal on: an SOS contact whose check-in request you miss sees your last known position"
                : "reveal off: a missed check-in request shows nobody your position"
        }
    }

    /// `error unknownUser: Nobody called 'bobb' uses SafeWalk.`
    public static func refusal(_ result: CircleResult) -> String {
        guard let error = result.error else { return "error: refused without a reason" }
        return "error \(error.code.rawValue): \(printable(error.message))"
    }

    /// A result as `watch` shows it: `follow ok`, `inbox ok, 3 events`, `sos error notFollowing: …`.
    public static func result(_ result: CircleResult) -> String {
        let op = result.op.map(printable) ?? "command"
        guard result.ok else { return op + " " + refusal(result) }
        return op + " ok" + (result.count.map { ", \(count($0, op == "inbox" ? "event" : "user"))" } ?? "")
    }

    // MARK: inbox

    /// One inbox event: `bob checked in safe at 02:20`, `ALERT bob needs help (panic, red) at
    /// 02:14 — 30.28490, -97.73410 ±8 m, battery 61%`.
    public func event(_ event: InboxEvent) -> String {
        let from = event.from.rawValue
        let at = time(event.at)
        switch event.type {
        case .followRequest: return "\(from) asks to follow you (at \(at)); `safewalk circle accept \(from)` or deny"
        case .followAccepted: return "\(from) accepted: you follow \(from) now (at \(at))"
        case .followDenied: return "\(from) denied your request to follow them (at \(at))"
        case .checkInRequest: return "\(from) asks you to check in (at \(at)); `safewalk circle checkin`"
        case .checkedIn: return "\(from) checked in safe at \(at)"
        case .homeSafe:
            return "\(from) is home safe (since \(at)" + (event.until.map { ", until \(time($0))" } ?? "") + ")"
        case .alert:
            let why = [event.reason?.rawValue, event.level?.rawValue].compactMap { $0 }.joined(separator: ", ")
            var line = "ALERT \(from) needs help" + (why.isEmpty ? "" : " (\(why))") + " at \(at) — "
            line += event.position.map { position($0, asOf: event.at) } ?? "no known position"
            if let note = event.note { line += " — \"\(Self.printable(note))\"" }
            return line
        case .allClear: return "\(from) is safe: the alert is over (at \(at))"
        case .lastKnown:
            let status = event.status.map { ", status \($0.rawValue)" } ?? ""
            let place = event.position.map { "last known position " + position($0, asOf: nil) } ?? "no known position"
            return "\(from) did not answer your check-in request: \(place)\(status)"
        case .seen: return "\(from) was shown your last known position: you missed their check-in request (at \(at))"
        case .circleNotAlerted:
            let code = event.code.map { " (\(Self.printable($0)))" } ?? ""
            return "your alert reached nobody in your circle\(code) at \(at); `safewalk circle sos USER` marks someone"
        case .ack: return Self.printable(event.text) + " (at \(at))"
        }
    }

    // MARK: shared views

    /// `{w}/shared/{other}`: `other`'s open incident for an SOS contact, or, cleared (nil), that
    /// it is no longer shared.
    public func shared(_ view: SharedView?, of other: WalkerID) -> String {
        guard let view else { return "\(other) is no longer shared with you" }
        let incident = view.incident
        var line = "\(other) needs help (\(incident.reason.rawValue), \(incident.level.rawValue))"
        line += " since \(time(incident.openedAt)) — "
        line += view.position.map { position($0, asOf: nil) } ?? "no position yet"
        if let who = incident.acknowledgedBy { line += " · \(Self.printable(who)) is on it" }
        if incident.duress { line += " · DURESS: their phone shows a cancel, do not call or text it" }
        return line
    }

    // MARK: the circle view

    /// The compact line `watch` prints when `{w}/circle` changes: `following bob (SOS), carol ·
    /// followers bob (their SOS) · asking to follow you: dave`.
    public func compact(_ view: CircleView, now: EpochSeconds) -> String {
        var parts: [String] = []
        let following = view.following.map { followed -> String in
            let marks = followedMarks(followed, now: now, withSince: false)
            return followed.user.rawValue + (marks.isEmpty ? "" : " (\(marks.joined(separator: ", ")))")
        }
        parts.append(following.isEmpty ? "following nobody" : "following " + following.joined(separator: ", "))
        let followers = view.followers.map { $0.user.rawValue + ($0.sosOfTheirs ? " (their SOS)" : "") }
        parts.append(followers.isEmpty ? "no followers" : "followers " + followers.joined(separator: ", "))
        for (title, requests) in requestLists(view) where !requests.isEmpty {
            parts.append("\(title): " + requests.map(\.user.rawValue).joined(separator: ", "))
        }
        if let home = view.homeSafe, home.isShown(at: now) {
            parts.append("you are home safe until \(time(home.until))")
        }
        if view.revealOnMissedCheckIn { parts.append("reveal on missed check-in") }
        return parts.joined(separator: " · ")
    }

    /// `safewalk circle show`: the whole view, one fact a line.
    public func lines(_ view: CircleView, now: EpochSeconds) -> [String] {
        var lines = ["circle of \(view.user)"]
        let width = (view.following.map(\.user.rawValue.count) + view.followers.map(\.user.rawValue.count)).max() ?? 0
        func row(_ user: WalkerID, _ facts: [String]) -> String {
            "  " + user.rawValue.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                + facts.joined(separator: " · ")
        }
        lines.append(view.following.isEmpty ? "following: nobody" : "following (\(view.following.count)):")
        for followed in view.following {
            lines.append(row(followed.user, followedMarks(followed, now: now, withSince: true)))
        }
        lines.append(view.followers.isEmpty ? "followers: nobody" : "followers (\(view.followers.count)):")
        for follower in view.followers {
            let facts = (follower.sosOfTheirs ? ["you are their SOS contact"] : []) + ["since \(day(follower.since))"]
            lines.append(row(follower.user, facts))
        }
        for (title, requests) in requestLists(view) where !requests.isEmpty {
            lines.append(
                "\(title): " + requests.map { "\($0.user) (\(time($0.at)))" }.joined(separator: ", "))
        }
        if let home = view.homeSafe, home.isShown(at: now) {
            lines.append("you are home safe (since \(time(home.at)), until \(time(home.until)))")
        }
        lines.append("reveal on missed check-in: " + (view.revealOnMissedCheckIn ? "on" : "off"))
        return lines
    }

    private func followedMarks(_ followed: CircleView.Followed, now: EpochSeconds, withSince: Bool) -> [String] {
        var marks: [String] = []
        if followed.sos { marks.append("SOS") }
        if withSince { marks.append("since \(day(followed.since))") }
        if let at = followed.checkedInAt { marks.append("checked in \(time(at))") }
        if let home = followed.homeSafe, home.isShown(at: now) {
            marks.append("home safe since \(time(home.at)) until \(time(home.until))")
        }
        return marks
    }

    private func requestLists(_ view: CircleView) -> [(String, [CircleView.Request])] {
        [
            ("asking to follow you", view.requestsIn), ("you asked to follow", view.requestsOut),
            ("asking you to check in", view.checkInRequests), ("you asked to check in", view.asked),
        ]
    }

    // MARK: pieces

    /// `30.28490, -97.73410 ±8 m, battery 61%`, with the position's own time when it is older than
    /// two minutes at `asOf` (or always, without `asOf`).
    func position(_ position: SharedPosition, asOf: EpochSeconds?) -> String {
        var text = String(format: "%.5f, %.5f", position.lat, position.lon)
        if let acc = position.acc { text += String(format: " ±%.0f m", acc) }
        if asOf.map({ $0 - position.tst > 120 }) ?? true { text += " at \(time(position.tst))" }
        if let battery = position.batt { text += String(format: ", battery %.0f%%", battery) }
        return text
    }

    /// `02:14`: hours and minutes in the terminal's time zone.
    func time(_ epoch: EpochSeconds) -> String {
        String(ClockText.time(epoch, timeZone: timeZone).prefix(5))
    }

    /// `2025-10-09`: for "since", which is usually days ago.
    func day(_ epoch: EpochSeconds) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: epoch))
        return String(format: "%04ld-%02ld-%02ld", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    static func people(_ n: Int) -> String { n == 1 ? "1 person" : "\(n) people" }

    /// `text` with every control character (C0, DEL, C1) and bidirectional override shown as `?`.
    public static func printable(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    let value = scalar.value
                    let control = value < 0x20 || (0x7F...0x9F).contains(value)
                    let bidi = (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
                    return control || bidi ? "?" : scalar
                }))
    }
}
