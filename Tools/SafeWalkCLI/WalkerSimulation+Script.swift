import Foundation
import SafeWalkCore

/// Playing the timed part of the ``SimulationScript``: heartbeats, release, needHelp, imSafe.
extension WalkerSimulation {
    /// Sends the steps due at once (PINs, start, hold) before the first fix, and returns them to
    /// be followed alongside the walk, which must not stall behind a slow watchdog, with the
    /// first later step.
    func sendOpening(_ script: inout SimulationScript, sender: ActionSender) async throws
        -> (opening: [ActionSender.Sent], later: ScriptStep?)
    {
        var opening: [ActionSender.Sent] = []
        while let step = script.next() {
            guard step.at <= 0, case .send(let kind, let note, let pin) = step.what else { return (opening, step) }
            opening.append(
                try await sender.publishFirst(Action(id: UUID().uuidString, kind: kind, note: note, pin: pin)))
        }
        return (opening, nil)
    }

    /// Performs `first` and then the rest of `script`, each at its time after `start`, until the
    /// script ends or the task is cancelled. Each action is followed in a task of its own, so a
    /// `release` waiting for its answer never delays the next heartbeat or step.
    func perform(
        from first: ScriptStep, then script: SimulationScript, start: EpochSeconds,
        sender: ActionSender
    ) async {
        var script = script
        await withTaskGroup(of: Void.self) { group in
            var step: ScriptStep? = first
            while let current = step, !Task.isCancelled {
                let wait = start + current.at - clock.now()
                if wait > 0 {
                    do { try await clock.sleep(seconds: wait) } catch { break }
                }
                do {
                    if let sent = try await perform(current, sender: sender) {
                        group.addTask { _ = await sender.follow(sent) }
                    }
                } catch {
                    break  // the connection is gone: the run is ending
                }
                step = script.next()
            }
        }
    }

    /// Does one step; returns the action to follow until answered, if any.
    private func perform(_ step: ScriptStep, sender: ActionSender) async throws -> ActionSender.Sent? {
        switch step.what {
        case .send(let kind, let note, let pin):
            return try await sender.publishFirst(Action(id: UUID().uuidString, kind: kind, note: note, pin: pin))
        case .heartbeat:
            _ = try await sender.publishFirst(Action(id: UUID().uuidString, kind: .holding))
            return nil
        case .dropHold:
            events(.holdDropped)
            return nil
        }
    }
}
