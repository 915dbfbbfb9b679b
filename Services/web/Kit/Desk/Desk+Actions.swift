import Foundation
import SafeWalkCore
import SafeWalkService

/// What an operator does about an incident: acknowledge, note, hand over, close. Each is also a
/// line in the desk's log, so the incident's page shows who did what and when.
extension Desk {
    /// The incident with this id as the desk knows it now (the walker's current or last one).
    public func incident(_ id: String) -> IncidentState? {
        board.withLock { board in board.walker(ofIncident: id).flatMap { board.walkers[$0]?.incident } }
    }

    /// The incident, which must be open (409 `notOpen` otherwise; 404 when the desk never saw it).
    func openIncident(_ id: String) throws(APIError) -> IncidentState {
        guard let incident = incident(id) else { throw .notFound }
        guard incident.state == .open else { throw .notOpen }
        return incident
    }

    /// "The campus desk is on it": through the notifier, like every acknowledgement; it stops the
    /// ladder and tells the walker (unless the incident is a duress one: the notifier asks
    /// ``DeviceDisclosure``).
    func acknowledge(_ id: String, by operator: WalkerID) async throws -> String {
        let incident = try openIncident(id)
        let request = AcknowledgementRequest(
            id: "desk-" + UUID().uuidString.lowercased(), via: .desk, user: `operator`, walker: incident.walker,
            at: now())
        let result: AcknowledgementResult
        do {
            result = try await live.acknowledge(request)
        } catch {
            logger.error("desk acknowledgement not answered", metadata: ["incident": "\(id)", "error": "\(error)"])
            throw APIError.unavailable
        }
        guard result.ok else { throw result.error == .closed ? APIError.notOpen : APIError.notFound }
        try await database.appendLog(
            DeskLogEntry(
                incident: id, at: now(), kind: .acknowledged, operator: `operator`.rawValue,
                text: "\(`operator`) acknowledged for \(settings.name)"),
            walker: incident.walker)
        boards.changed(.board)
        return result.by ?? settings.name
    }

    func addNote(_ id: String, text: String, by operator: WalkerID) async throws {
        guard let incident = incident(id) else { throw APIError.notFound }
        try await database.appendLog(
            DeskLogEntry(incident: id, at: now(), kind: .note, operator: `operator`.rawValue, text: text),
            walker: incident.walker)
    }

    func handOver(_ id: String, to other: String, by operator: WalkerID) async throws {
        let incident = try openIncident(id)
        guard let key = UsernameRule.lookupKey(other), let account = try await database.account(key: key),
            account.role.isDesk, account.state == .active
        else { throw APIError.unknownOperator }
        try await database.appendLog(
            DeskLogEntry(
                incident: id, at: now(), kind: .handover, operator: `operator`.rawValue,
                text: "\(`operator`) handed the incident to \(account.username)", assignee: account.username.rawValue),
            walker: incident.walker)
        boards.changed(.board)
    }

    /// Closes the incident through the watchdog, which decides (a repeat is `notOpen`); the close
    /// reaches everyone who was told through the notifier, once.
    func close(_ id: String, reason: DeskCloseReason, note: String?, by operator: WalkerID) async throws {
        let incident = try openIncident(id)
        if let refusal = DeskCloseRule.refusal(reason: reason, note: note, duress: incident.duress) {
            throw refusal == .noteRequired ? APIError.noteRequired : APIError.notOpen
        }
        let request = DeskClose(
            id: "close-" + UUID().uuidString.lowercased(), walker: incident.walker, incident: id, reason: reason,
            note: note, operator: `operator`.rawValue, at: now())
        let payload = try SafeWalkJSON.encode(request)
        let topic = Topic.deskClose.name(prefix: prefix)
        let result: DeskCloseResult
        do {
            result = try await Deadline.run(settings.answerWait, clock: ContinuousClock()) { [closes, bus] in
                try await closes.wait(for: request.id) {
                    try await bus.publish(topic, payload: payload, qos: .atLeastOnce)
                }
            }
        } catch {
            logger.error("desk close not answered", metadata: ["incident": "\(id)", "error": "\(error)"])
            throw APIError.unavailable
        }
        switch result.error {
        case nil:
            break
        case .noteRequired: throw APIError.noteRequired
        case .notOpen, .refused: throw APIError.notOpen
        }
        let words = note.map { ": " + $0 } ?? ""
        try await database.appendLog(
            DeskLogEntry(
                incident: id, at: now(), kind: .closed, operator: `operator`.rawValue,
                text: "\(`operator`) closed it as \(reason.words)\(words)"),
            walker: incident.walker)
        logger.notice(
            "incident closed by the desk",
            metadata: [
                "operator": "\(`operator`)", "walker": "\(incident.walker)", "incident": "\(id)",
                "reason": "\(reason.rawValue)",
            ])
    }
}
