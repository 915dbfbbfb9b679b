import Foundation
import SafeWalkCore

/// One line per thing the simulator did, e.g. `12:03:04 alice  fix 30.28490,-97.73410`.
struct SimulationPrinter: Sendable {
    let walker: String
    let colour: Bool

    func print(_ event: SimulationEvent) {
        Terminal.write(SimulationText.line(event, walker: walker, style: Style(enabled: colour),
                                           now: Date().timeIntervalSince1970, timeZone: .current) + "\n")
    }
}

/// The simulator's output, kept pure for tests.
public enum SimulationText {
    public static func line(_ event: SimulationEvent, walker: String, style: Style, now: EpochSeconds,
                            timeZone: TimeZone) -> String {
        let head = style.dim(ClockText.time(now, timeZone: timeZone)) + " " + style.bold(walker) + "  "
        switch event {
        case .online: return head + "presence online (Last Will: offline)"
        case .actionSent(let action):
            if case .startWalk(let destination, let minutes) = action.kind {
                return head + "action startWalk to \(destination), \(Self.number(minutes)) min"
            }
            return head + "action \(action.kind.name)"
        case .fix(let fix):
            return head + style.dim(String(format: "fix %.5f,%.5f ±%.0f m", fix.lat, fix.lon, fix.acc ?? 0))
        case .answered(let reply): return head + style.green("replied \"\(reply.text)\"")
        case .wentSilent: return head + style.yellow("gone silent: check-ins will not be answered")
        case .leftUnanswered: return head + style.yellow("check-in left unanswered (silent)")
        case .finished: return head + "stopped"
        }
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

/// `HH:mm:ss` in a given time zone, without DateFormatter (pure and cheap).
public enum ClockText {
    public static func time(_ epoch: EpochSeconds, timeZone: TimeZone) -> String {
        let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: epoch))
        let seconds = ((Int(epoch.rounded(.down)) + offset) % 86_400 + 86_400) % 86_400
        func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(pad(seconds / 3600)):\(pad(seconds / 60 % 60)):\(pad(seconds % 60))"
    }
}
