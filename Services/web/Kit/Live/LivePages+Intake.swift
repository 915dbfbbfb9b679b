import Foundation
import SafeWalkCore
import SafeWalkMQTT

extension LivePages {
    /// Size limits (bytes) before a payload is parsed: a ladder holds up to 100 timeline lines and
    /// every recipient; an incident state, a position and a status are a few hundred bytes.
    static let maxLadderBytes = 65_536
    static let maxIncidentBytes = 4_096
    static let maxPositionBytes = 8_192
    static let maxStatusBytes = 8_192
    static let maxAnswerBytes = 1_024

    func receive(_ message: MQTTMessage) async {
        guard let topic = Topic.parse(message.topic, prefix: prefix) else {
            await reporter.reject(reason: "invalid_topic", topicKind: .ladder, now: now())
            return
        }
        if topic.kind == .acknowledgementResult {
            receiveAnswer(message)
            return
        }
        guard let walker = topic.walker, [.ladder, .incident, .position, .status].contains(topic.kind) else {
            await reporter.reject(reason: "unexpected_topic", topicKind: topic.kind, now: now())
            return
        }
        let input: PageBoard.Input
        do {
            input = try Self.read(message.payload, kind: topic.kind, walker: walker)
        } catch {
            await reporter.reject(reason: error.code, topicKind: topic.kind, walker: walker, now: now())
            return
        }
        let at = now()
        let changed = board.withLock { $0.apply(input, now: at) }
        do {
            let stored = try await database.savePages(changed, at: at)
            board.withLock { board in
                board.stored(stored)
                if stored.contains(where: { $0.closedAt != nil || $0.revoked }) {
                    board.prune(now: at, grace: settings.grace)
                }
            }
        } catch {
            // The board has it: pages work until a restart, which rereads the retained ladder.
            logger.error("pages not stored", metadata: ["walker": "\(walker)", "error": "\(error)"])
        }
        watchers.changed(walker)
    }

    /// The reader's rules (docs/CONTRACT.md): size first, then decoding; the walker of a payload
    /// is the one in its topic; an empty retained message is a clear.
    static func read(_ payload: Data, kind: Topic.Kind, walker: WalkerID) throws(PayloadError) -> PageBoard.Input {
        switch kind {
        case .ladder:
            guard !payload.isEmpty else { return .ladder(walker, nil) }
            let ladder = try SafeWalkJSON.decode(LadderState.self, from: payload, maxBytes: maxLadderBytes)
            guard ladder.walker == walker else { throw .invalidValue("walker") }
            guard ladder.recipients.allSatisfy({ $0.page.map(PageRecord.isDigest) ?? true }) else {
                throw .invalidValue("page")
            }
            return .ladder(walker, ladder)
        case .incident:
            guard !payload.isEmpty else { return .incident(walker, nil) }
            let incident = try SafeWalkJSON.decode(IncidentState.self, from: payload, maxBytes: maxIncidentBytes)
            guard incident.walker == walker else { throw .invalidValue("walker") }
            return .incident(walker, incident)
        case .status:
            // Only the walk is kept: the status's state and level are the device's view, which
            // under duress is a cancel (the page's state is the incident's). A status names no
            // walker: the topic's is the only one.
            guard !payload.isEmpty else { return .plan(walker, nil) }
            let status = try SafeWalkJSON.decode(WatchStatus.self, from: payload, maxBytes: maxStatusBytes)
            guard status.walk.map({ $0.eta.isFinite }) ?? true else { throw .invalidValue("walk") }
            return .plan(walker, status.walk)
        default:
            guard !payload.isEmpty else { return .position(walker, nil) }
            let position = try PositionUpdate.decode(payload, maxBytes: maxPositionBytes)
            let fix = position.fix
            guard fix.lat.isFinite, fix.lon.isFinite, (-90...90).contains(fix.lat), (-180...180).contains(fix.lon),
                fix.tst.isFinite, fix.acc.map({ $0.isFinite && $0 >= 0 }) ?? true
            else { throw .invalidValue("position") }
            return .position(walker, position)
        }
    }

    func receiveAnswer(_ message: MQTTMessage) {
        guard
            let result = try? SafeWalkJSON.decode(
                AcknowledgementResult.self, from: message.payload, maxBytes: Self.maxAnswerBytes)
        else {
            logger.error("unreadable acknowledgement answer ignored", metadata: ["bytes": "\(message.payload.count)"])
            return
        }
        if !answers.deliver(result, for: result.id) {
            logger.debug("acknowledgement answer nobody waits for", metadata: ["id": "\(result.id)"])
        }
    }
}
