import SafeWalkCore

/// One thing the simulated walker does, `at` seconds after the start.
public struct ScriptStep: Sendable, Equatable {
    public enum What: Sendable, Equatable {
        /// An action, repeated until answered.
        case send(Action.Kind, note: String? = nil, pin: PIN? = nil)
        /// A `holding` heartbeat. Not repeated: the next heartbeat is its repeat, and a late
        /// one is worth nothing. Its answer is still reported (a `not_holding` matters).
        case heartbeat
        /// The heartbeats stop without a `release`.
        case dropHold
    }

    public var at: Double
    public var what: What

    public init(at: Double, _ what: What) {
        self.at = at
        self.what = what
    }
}

/// The walker's actions and when, worked out from the settings alone so the schedule is tested
/// without a clock: PINs first (so a later `imSafe` can use them), then `start`, the hold and its
/// heartbeats, `needHelp`, `imSafe`, in time order. Heartbeats are made as they are asked for,
/// so a long hold costs no memory. The final `stop` is not here: it comes when the run ends,
/// however it ends.
public struct SimulationScript: Sequence, IteratorProtocol, Sendable {
    /// Every step but the heartbeats, in time order.
    private var fixed: [ScriptStep]
    private var nextFixed = 0
    private let hold: HoldPlan?
    private var beat = 1
    /// Nothing is sent once the run is over (`--duration`).
    private let horizon: Double

    public init(_ settings: SimulationSettings) {
        var steps: [ScriptStep] = []
        if let pins = settings.pins {
            steps.append(ScriptStep(at: 0, .send(.setPins(pins.change), pin: pins.current)))
        }
        let start: Action.Kind =
            settings.walk.map { .startWalk(destination: $0.destination, minutes: $0.minutes) } ?? .start
        steps.append(ScriptStep(at: 0, .send(start)))
        if let hold = settings.hold {
            steps.append(ScriptStep(at: 0, .send(.hold(hold.level), note: settings.note)))
            let end: ScriptStep.What =
                switch hold.end {
                case .release: .send(.release)
                case .cancel: .send(.cancelHold)
                case .drop: .dropHold
                }
            steps.append(ScriptStep(at: hold.endsAfter, end))
        }
        if let after = settings.needHelpAfter {
            steps.append(ScriptStep(at: after, .send(.needHelp, note: settings.note)))
        }
        if let after = settings.imSafeAfter {
            steps.append(ScriptStep(at: after, .send(.imSafe, pin: settings.endPIN)))
        }
        // Stable by time: steps at the same moment keep the order above.
        fixed = steps.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
        hold = settings.hold
        horizon = settings.duration ?? .infinity
    }

    /// The next heartbeat's time, strictly before the hold ends; nil when none is left.
    private var nextBeat: Double? {
        guard let hold else { return nil }
        // Multiplied, not summed, so rounding does not drift a long hold's heartbeats.
        let at = Double(beat) * hold.heartbeat
        return at < hold.endsAfter ? at : nil
    }

    public mutating func next() -> ScriptStep? {
        let step: ScriptStep
        if let at = nextBeat, nextFixed == fixed.count || at < fixed[nextFixed].at {
            beat += 1
            step = ScriptStep(at: at, .heartbeat)
        } else if nextFixed < fixed.count {
            step = fixed[nextFixed]
            nextFixed += 1
        } else {
            return nil
        }
        return step.at < horizon ? step : nil
    }
}
