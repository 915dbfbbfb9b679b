import ArgumentParser
import Foundation
import SafeWalkCore

/// `simulate`'s actions beyond start and stop: a cry for help, the hold-to-release button,
/// PINs, and how every action is repeated until the watchdog answers it.
struct SimulateActionOptions: ParsableArguments {
    @Option(name: .customLong("need-help-after"), help: "Send needHelp this long after the start.")
    var needHelpAfter: DurationValue?

    @Option(
        help: ArgumentHelp(
            "Press the hold-to-release button at the start, at this level (amber or red); end the hold with --release-after, --drop-hold-after or --cancel-hold-after.",
            valueName: "level"),
        transform: ArgumentTransforms.level)
    var hold: EscalationLevel?

    @Option(
        help:
            "While holding, send a `holding` heartbeat this often (default 2s; must be under the watchdog's SAFEWALK_HOLD_HEARTBEAT, 3 s by default)."
    )
    var heartbeat: DurationValue?

    @Option(
        name: .customLong("release-after"),
        help: "Lift the finger this long after the start: `release`, the panic at once.")
    var releaseAfter: DurationValue?

    @Option(
        name: .customLong("drop-hold-after"),
        help:
            "Stop the heartbeats this long after the start, without a release (a phone that died): the watchdog raises the panic."
    )
    var dropHoldAfter: DurationValue?

    @Option(
        name: .customLong("cancel-hold-after"),
        help: "Slide the finger off this long after the start: `cancelHold`, disarmed silently.")
    var cancelHoldAfter: DurationValue?

    @Option(
        help: ArgumentHelp(
            "A preset message, at most \(CryForHelp.maxNoteLength) characters, sent with needHelp and hold.",
            valueName: "text"),
        transform: ArgumentTransforms.note)
    var note: String?

    @Option(
        name: .customLong("set-pins"),
        help: ArgumentHelp(
            "At the start set the cancel PIN and optionally a duress PIN, 4-12 digits each (test PINs only: a command line is not secret).",
            valueName: "cancel[:duress]"),
        transform: ArgumentTransforms.pins)
    var setPins: PINChange?

    @Option(
        help: ArgumentHelp("The current cancel PIN, when --set-pins changes PINs already set.", valueName: "current"),
        transform: ArgumentTransforms.pin)
    var pin: PIN?

    @Option(
        name: .customLong("end-with-pin"),
        help: ArgumentHelp(
            "The PIN the final `stop` (and --im-safe-after's `imSafe`) carries: the cancel PIN, or the duress PIN.",
            valueName: "pin"),
        transform: ArgumentTransforms.pin)
    var endWithPin: PIN?

    @Option(
        name: .customLong("im-safe-after"),
        help: "Send imSafe this long after the start (with --end-with-pin's PIN, if given).")
    var imSafeAfter: DurationValue?

    @Option(name: .customLong("repeat-every"), help: "Repeat an unanswered action, same id, this often.")
    var repeatEvery = DurationValue(seconds: 2)

    @Option(name: .customLong("answer-timeout"), help: "Stop repeating an action that has no answer after this long.")
    var answerTimeout = DurationValue(seconds: 60)

    func validate() throws {
        let ends = [
            ("--release-after", releaseAfter), ("--drop-hold-after", dropHoldAfter),
            ("--cancel-hold-after", cancelHoldAfter),
        ].filter { $0.1 != nil }
        if hold == nil {
            if let (name, _) = ends.first { throw ValidationError("\(name) needs --hold") }
            if heartbeat != nil { throw ValidationError("--heartbeat needs --hold") }
        } else {
            guard ends.count == 1, let end = ends.first?.1 else {
                throw ValidationError(
                    "--hold needs exactly one of --release-after, --drop-hold-after, --cancel-hold-after")
            }
            if end.seconds <= 0 { throw ValidationError("\(ends[0].0) must be > 0") }
            let limit = Self.heartbeatLimit()
            if let heartbeat, !(heartbeat.seconds > 0 && heartbeat.seconds < limit) {
                throw ValidationError(
                    "--heartbeat must be > 0 and under the watchdog's SAFEWALK_HOLD_HEARTBEAT "
                        + "(\(CLIError.seconds(limit))): two missed heartbeats raise the panic")
            }
        }
        if note != nil && hold == nil && needHelpAfter == nil {
            throw ValidationError("--note goes with --need-help-after or --hold")
        }
        if pin != nil && setPins == nil { throw ValidationError("--pin (the current cancel PIN) goes with --set-pins") }
        if repeatEvery.seconds <= 0 { throw ValidationError("--repeat-every must be > 0") }
        if answerTimeout.seconds <= 0 { throw ValidationError("--answer-timeout must be > 0") }
    }

    /// The watchdog's heartbeat limit: `SAFEWALK_HOLD_HEARTBEAT` when set (the stack started by
    /// `safewalk up` reads the same variable), else the contract's default.
    static func heartbeatLimit(environment: [String: String] = ProcessInfo.processInfo.environment) -> Double {
        guard let text = environment["SAFEWALK_HOLD_HEARTBEAT"], let seconds = Double(text), seconds.isFinite,
            seconds > 0
        else { return SafetyThresholds.defaults.holdHeartbeat }
        return seconds
    }

    /// Puts these options into `settings`.
    func apply(to settings: inout SimulationSettings) {
        settings.actionRepeat = ActionRepeat(every: repeatEvery.seconds, giveUpAfter: answerTimeout.seconds)
        settings.pins = setPins.map { PINSetup(change: $0, current: pin) }
        settings.needHelpAfter = needHelpAfter?.seconds
        settings.imSafeAfter = imSafeAfter?.seconds
        settings.note = note
        settings.endPIN = endWithPin
        if let hold {
            let end: (HoldPlan.End, DurationValue?) =
                releaseAfter.map { (.release, $0) }
                ?? dropHoldAfter.map { (.drop, $0) } ?? (.cancel, cancelHoldAfter)
            settings.hold = HoldPlan(
                level: hold, heartbeat: heartbeat?.seconds ?? 2, end: end.0,
                endsAfter: end.1?.seconds ?? 0)
        }
    }
}
