import SafeWalkCore

/// What each action does, and the answer the device gets for it.
extension WatchMachine {
    /// Applies an action once and answers it; a repeat of a remembered id is answered again with
    /// the same answer and not applied.
    func answer(
        _ action: Action, _ check: ActionCheck, to watch: inout Watch, now: EpochSeconds,
        into decisions: inout Decisions
    ) {
        if !action.id.isEmpty, let remembered = watch.recentActions.first(where: { $0.id == action.id }) {
            decisions.answers.append(.answer(DeviceDisclosure.answer(id: action.id, remembered.outcome)))
            return
        }
        let outcome = apply(action, check, to: &watch, now: now, into: &decisions)
        if !action.id.isEmpty {
            watch.recentActions.append(RememberedAction(id: action.id, outcome: outcome))
            if watch.recentActions.count > Watch.rememberedActions { watch.recentActions.removeFirst() }
        }
        decisions.answers.append(.answer(DeviceDisclosure.answer(id: action.id, outcome, warnings: check.warnings)))
    }

    private func apply(
        _ action: Action, _ check: ActionCheck, to watch: inout Watch, now: EpochSeconds,
        into decisions: inout Decisions
    ) -> ActionOutcome {
        switch action.kind {
        case .start:
            let newWatch = !watch.isWatching
            if newWatch { beginWatch(&watch, now: now) }
            setLocation(action.location, newWatch: newWatch, &watch, now: now)
        case .startWalk:
            let newWatch = !watch.isWatching
            if newWatch { beginWatch(&watch, now: now) }
            watch.walk = action.walk(startingAt: now)
            watch.progress = progress(for: action, now: now)
            watch.timers.walkETA = watch.walk?.eta
            setLocation(action.location, newWatch: newWatch, &watch, now: now)
        case .stop, .arrived, .imSafe:
            return endIncident(action.kind, check.pin, &watch, now: now, into: &decisions)
        case .needHelp:
            escalate(&watch, .needHelp, level: .red, note: action.note, now: now, into: &decisions)
        case .panic(let level):
            escalate(&watch, .panic, level: level, note: action.note, now: now, into: &decisions)
        case .hold(let level):
            watch.hold = HoldSwitch(level: level, lastBeatAt: now, note: action.note)
        case .holding:
            guard watch.hold != nil else { return .refused(.notHolding) }
            watch.hold?.lastBeatAt = now
        case .release:
            // A release the server never saw armed still calls for help: the hold may have been lost.
            let hold = watch.hold
            watch.hold = nil
            escalate(
                &watch, .panic, level: hold?.level ?? .red, note: action.note ?? hold?.note, now: now,
                into: &decisions)
        case .cancelHold:
            watch.hold = nil
        case .setPins, .clearPins:
            return changePINs(action.kind, check, &watch, now: now, into: &decisions)
        }
        return .applied
    }

    /// `stop`, `arrived` and `imSafe`. With a cancel PIN set, ending the incident the device knows
    /// about needs it; the duress PIN ends it for the device exactly as the cancel PIN would.
    private func endIncident(
        _ kind: Action.Kind, _ pin: PINVerdict, _ watch: inout Watch, now: EpochSeconds,
        into decisions: inout Decisions
    ) -> ActionOutcome {
        let needsPIN = watch.pins != nil && watch.incident != nil
        switch pin {
        case .wrong where needsPIN:
            return wrongPIN(&watch, now: now, into: &decisions)
        case .notGiven where needsPIN:
            return .refused(.pinRequired)
        case .duress:
            let cancelled = watch.incident
            end(kind, &watch, now: now, into: &decisions)
            raiseDuress(&watch, continuing: cancelled, now: now, into: &decisions)
            return .appliedUnderDuress
        case .cancel:
            watch.duress = nil
            watch.wrongPins = 0
            end(kind, &watch, now: now, into: &decisions)
        case .notGiven, .wrong:
            end(kind, &watch, now: now, into: &decisions)
        }
        return .applied
    }

    /// `arrived` also tells the services (`_arrivals/{w}`), under duress too: that topic is theirs
    /// alone, and the duress incident stays open on `_incidents/{w}` whatever the walk did.
    private func end(_ kind: Action.Kind, _ watch: inout Watch, now: EpochSeconds, into decisions: inout Decisions) {
        if kind == .imSafe {
            rearm(&watch, now: now)
        } else {
            if kind == .arrived { noteArrival(watch, automatic: false, now: now, into: &decisions) }
            endWatch(&watch)
        }
    }

    /// `setPins` / `clearPins`: changing PINs that are set needs the cancel PIN (the duress PIN
    /// seems to work, and raises the duress incident).
    private func changePINs(
        _ kind: Action.Kind, _ check: ActionCheck, _ watch: inout Watch, now: EpochSeconds,
        into decisions: inout Decisions
    ) -> ActionOutcome {
        var outcome = ActionOutcome.applied
        if watch.pins != nil {
            switch check.pin {
            case .notGiven: return .refused(.pinRequired)
            case .wrong: return wrongPIN(&watch, now: now, into: &decisions)
            case .cancel: watch.wrongPins = 0
            case .duress:
                raiseDuress(&watch, continuing: watch.incident, now: now, into: &decisions)
                outcome = .appliedUnderDuress
            }
        }
        if case .setPins = kind {
            guard let hashes = check.newPins else { return .refused(.pinRequired) }
            watch.pins = hashes
        } else {
            watch.pins = nil
        }
        return outcome
    }

    private func wrongPIN(_ watch: inout Watch, now: EpochSeconds, into decisions: inout Decisions) -> ActionOutcome {
        watch.wrongPins += 1
        if watch.wrongPins >= thresholds.wrongPinLimit {
            watch.wrongPins = 0
            escalate(&watch, .wrongPin, level: .red, now: now, into: &decisions)
        }
        return .refused(.wrongPIN)
    }

    /// The duress incident: red, flagged, and sent after everything the device sees. One per
    /// duress incident, like any other. It is the incident the walker seemed to cancel (same id,
    /// reason and opening), so services see that incident go on; with none, a new one (`panic`).
    private func raiseDuress(
        _ watch: inout Watch, continuing cancelled: Incident?, now: EpochSeconds,
        into decisions: inout Decisions
    ) {
        guard watch.duress == nil else { return }
        let id = makeID()
        let duress = Incident(
            id: cancelled?.id ?? id, reason: cancelled?.reason ?? .panic, level: .red, at: cancelled?.at ?? now)
        watch.duress = duress
        decisions.silent.append(
            .escalate(
                EscalationDraft(
                    id: id, incident: duress.id, reason: duress.reason, level: .red, at: now, lastFix: watch.lastFix,
                    walk: watch.walk, duress: true)))
    }

    private func beginWatch(_ watch: inout Watch, now: EpochSeconds) {
        watch.timers = WatchTimers(watchedSince: now, lastCheckInAt: now, offlineSince: watch.timers.offlineSince)
        watch.walk = nil
        watch.progress = nil
        watch.concerned = false
    }

    /// `imSafe`: ends the incident and restarts every running clock from now, so the trigger
    /// that fired does not fire again at once. An overdue walk is dropped (the walker can start
    /// a new one); a device still offline gets a new grace period. While "need more time?" waits,
    /// `imSafe` is its answer: the walk is extended, not dropped.
    func rearm(_ watch: inout Watch, now: EpochSeconds) {
        watch.incident = nil
        watch.concerned = false
        guard watch.isWatching else { return }
        grantMoreTimeIfAsked(&watch, now: now)
        rearmWalk(&watch, now: now)
        watch.timers.promptSentAt = nil
        watch.timers.lastCheckInAt = now
        watch.timers.lastMovedAt = now
        if watch.timers.offlineSince != nil { watch.timers.offlineSince = now }
        if let eta = watch.timers.walkETA, eta <= now {
            watch.timers.walkETA = nil
            watch.walk = nil
            watch.progress = nil
        }
    }
}
