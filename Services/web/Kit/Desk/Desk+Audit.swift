import Foundation
import SafeWalkCore

/// Every look an operator takes is recorded, and the walker is told who looked (docs/CONTRACT.md,
/// "The monitoring desk"). The record is written before anything is served, so nothing is ever
/// served unrecorded; the notice waits in the store until ``DeviceDisclosure`` lets the desk
/// speak (after a duress incident closes), and a restart sends what still waits.
extension Desk {
    /// Records that `operator` was shown `what` of `incident`; tells the walker the first time
    /// this operator looks at this incident.
    func recordView(_ incident: IncidentState, by operator: String, what: DeskView.What) async throws {
        let at = now()
        let view = DeskView(
            walker: incident.walker, incident: incident.incident, operator: `operator`, what: what, at: at,
            duress: incident.duress)
        let notice = DeskNotice(
            id: view.id, operator: `operator`, desk: settings.name, incident: incident.incident, at: at,
            text: "\(`operator`) of \(settings.name) viewed your alert at \(UTCClockText.hoursAndMinutes(at))")
        let first = try await database.recordView(view, notice: notice)
        logger.info(
            "desk view recorded",
            metadata: [
                "operator": "\(`operator`)", "walker": "\(incident.walker)", "incident": "\(incident.incident)",
                "what": "\(what.rawValue)",
            ])
        // The record is what must come before serving; the walker's notice goes out beside it, so
        // a slow broker never holds up what the operator needs to see now.
        if first { Task { await sendWaitingNotices(of: incident.walker) } }
    }

    /// Sends the walker's waiting notices that the device may be told now, each marked sent once
    /// the broker has it (a failure leaves it waiting for the next incident message or view).
    func sendWaitingNotices(of walker: WalkerID) async {
        do {
            let current = board.withLock { $0.walkers[walker]?.incident }
            for waiting in try await database.waitingNotices(of: walker)
            where DeviceDisclosure.deskMayTell(about: waiting.incident, current: current) {
                try await bus.publish(
                    Topic.deskNotice(walker).name(prefix: prefix), payload: waiting.notice, qos: .atLeastOnce)
                try await database.markNotified(waiting.id, at: now())
            }
        } catch {
            logger.error("desk notices not sent", metadata: ["walker": "\(walker)", "error": "\(error)"])
        }
    }
}
