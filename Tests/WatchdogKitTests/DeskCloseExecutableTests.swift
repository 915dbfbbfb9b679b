import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// The monitoring desk's close through the real `watchdog` executable, a real Mosquitto and real
/// SQLite: escalate, close from the desk, the answer, the services' view, the re-armed watch, and
/// a SIGKILL in between that loses nothing.
@Suite(.timeLimit(.minutes(2))) struct DeskCloseExecutableTests {
    static let quiet = "600"
    let alice = WalkerID(validating: "alice")!

    /// The next message on `subscription` that `matches`; skips repeats of messages from before a
    /// SIGKILL (QoS 1 is at least once: a row published but not yet marked sent goes out again).
    func next<T: Decodable>(
        _ type: T.Type, on subscription: MQTTSubscription, where matches: (T) -> Bool
    ) async throws -> T {
        while true {
            let value = try await subscription.next(type)
            if matches(value) { return value }
        }
    }

    @Test func theDeskClosesAnIncidentTheWatchReArmsAndARestartKeepsTheClose() async throws {
        let broker = try await MosquittoBroker.start()
        let w = try await WatchdogProcess(
            broker: broker,
            thresholds: [
                "SAFEWALK_CHECKIN_INTERVAL": Self.quiet, "SAFEWALK_NO_REPLY_AFTER": "2",
                "SAFEWALK_NO_MOVEMENT_AFTER": Self.quiet, "SAFEWALK_OFFLINE_GRACE": Self.quiet,
            ])
        try await w.start()
        let escalations = try await w.subscribe("safewalk/alice/escalation")
        let incidents = try await w.subscribe("safewalk/_incidents/alice")
        let results = try await w.subscribe("safewalk/_desk/result")
        try await w.act("alice", .start)
        let first = try await escalations.next(EscalationEvent.self)
        #expect(first.reason == .noReply)
        let opened = try await incidents.next(IncidentState.self)
        #expect(opened.incident == first.id && opened.state == .open)

        try await w.send(
            .deskClose,
            DeskClose(
                id: "desk-1", walker: alice, incident: first.id, reason: .handedToPolice, operator: "olga", at: now()))
        let result = try await results.next(DeskCloseResult.self)
        #expect(result == DeskCloseResult(id: "desk-1", ok: true, walker: alice, incident: first.id))
        let closed = try await incidents.next(IncidentState.self)
        #expect(closed.incident == first.id && closed.state == .closed)
        #expect(closed.closedBy == .desk && closed.closeReason == .handedToPolice)
        let closedAt = try #require(closed.closedAt)

        // SIGKILL right after the answer: the answer promised the close was on disk.
        try await w.kill()
        try await w.start()
        try await w.send(
            .deskClose,
            DeskClose(id: "desk-2", walker: alice, incident: first.id, reason: .resolved, operator: "olga", at: now()))
        let repeated = try await next(DeskCloseResult.self, on: results) { $0.id == "desk-2" }
        #expect(repeated.error == .notOpen, "the close survived the kill")

        // The watch was re-armed at the close: the next silence is a new incident, counted from it.
        let second = try await next(EscalationEvent.self, on: escalations) { $0.id != first.id }
        #expect(second.reason == .noReply && second.incident == second.id)
        #expect(second.at >= closedAt + 2)
        let reopened = try await next(IncidentState.self, on: incidents) { $0.incident == second.id }
        #expect(reopened.state == .open && !reopened.duress)
        await w.shutdown()
    }
}
