import Foundation
import SafeWalkCore

/// One line per thing the simulator did, e.g. `12:03:04 alice  fix 30.28490,-97.73410`.
struct SimulationPrinter: Sendable {
    let walker: String
    let colour: Bool

    func print(_ event: SimulationEvent) {
        guard
            let line = SimulationText.line(
                event, walker: walker, style: Style(enabled: colour),
                now: Date().timeIntervalSince1970, timeZone: .current)
        else { return }
        Terminal.write(line + "\n")
    }
}

/// The simulator's output, kept pure for tests.
public enum SimulationText {
    /// The line for one event; nil for one not worth a line (an `ok` to a heartbeat, every 2 s).
    public static func line(
        _ event: SimulationEvent, walker: String, style: Style, now: EpochSeconds,
        timeZone: TimeZone
    ) -> String? {
        let head = style.dim(ClockText.time(now, timeZone: timeZone)) + " " + style.bold(walker) + "  "
        switch event {
        case .online: return head + "presence online (Last Will: offline)"
        case .actionSent(let action):
            let text = "action " + ActionText.describe(action)
            return head + (action.kind == .holding ? style.dim(text) : text)
        case .actionRepeated(let action, let attempt):
            return head + style.yellow("no answer yet: \(action.kind.name) again, same id (attempt \(attempt))")
        case .actionAnswered(let action, .result(let result)):
            if result.ok && action.kind == .holding { return nil }
            let text = "answer to \(action.kind.name): " + ActionText.outcome(result)
            return head + (result.ok ? style.green(text) : style.red(text))
        case .actionAnswered(let action, .refused(let refusal)):
            return head + style.red("answer to \(action.kind.name): " + ActionText.refusal(refusal))
        case .actionUnanswered(let action, let attempts):
            return head
                + style.red("no answer to \(action.kind.name) after \(attempts) tries; is the watchdog running?")
        case .refused(let refusal):
            return head + style.yellow("rejected: " + ActionText.refusal(refusal))
        case .holdDropped:
            return head + style.yellow("hold heartbeats stopped without a release: the watchdog should raise the panic")
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
