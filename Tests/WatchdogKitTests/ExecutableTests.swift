import Foundation
import SafeWalkCore
import SafeWalkMQTT
import Synchronization
import TestSupport
import Testing

/// The real `watchdog` executable, a real Mosquitto and real SQLite, thresholds shortened by
/// configuration. "No escalation" is asserted only after a later event proves time has passed.
@Suite(.timeLimit(.minutes(2))) struct ExecutableTests {
    static let quiet = "600"

    func watchdog(_ thresholds: [String: String], persistence: Bool = false) async throws -> WatchdogProcess {
        let broker = try await MosquittoBroker.start(persistence: persistence)
        let process = try await WatchdogProcess(broker: broker, thresholds: thresholds)
        try await process.start()
        return process
    }

    @Test func aSilentWalkerGetsExactlyOneNoReplyEscalation() async throws {
        let w = try await watchdog([
            "SAFEWALK_CHECKIN_INTERVAL": "0.5", "SAFEWALK_NO_REPLY_AFTER": "1",
            "SAFEWALK_NO_MOVEMENT_AFTER": Self.quiet, "SAFEWALK_OFFLINE_GRACE": Self.quiet,
        ])
        let escalations = try await w.subscribe("safewalk/+/escalation")
        let prompts = try await w.subscribe("safewalk/alice/prompt")
        try await w.act("alice", .start)
        let prompt = try await prompts.next(CheckInPrompt.self)
        let escalation = try await escalations.next(EscalationEvent.self)
        #expect(escalation.walker.rawValue == "alice")
        #expect(escalation.reason == .noReply)
        #expect(escalation.level == .amber)
        #expect(escalation.at >= prompt.replyBy && escalation.at < prompt.replyBy + 1)
        // bob starts after alice's escalation; his own noReply comes 1.5 s later, proving that
        // much time passed without a second escalation for alice.
        try await w.act("bob", .start)
        let later = try await escalations.next(EscalationEvent.self)
        #expect(later.walker.rawValue == "bob")
        await w.shutdown()
    }

    @Test func aWalkerWhoStopsMovingGetsNoMovement() async throws {
        // The start's own no-movement deadline is `stillFor` away, and the fix must beat it: 1 s
        // lost that race once in CI, when the start's status reached the test 1.2 s late under
        // the whole suite's load.
        let stillFor = 4.0
        let w = try await watchdog([
            "SAFEWALK_CHECKIN_INTERVAL": Self.quiet, "SAFEWALK_NO_MOVEMENT_AFTER": "\(stillFor)",
            "SAFEWALK_OFFLINE_GRACE": Self.quiet,
        ])
        let escalations = try await w.subscribe("safewalk/alice/escalation")
        let statuses = try await w.subscribe("safewalk/alice/status")
        try await w.act("alice", .start)
        _ = try await statuses.next(WatchStatus.self)
        let movedAt = now()
        try await w.send(
            .position(try WalkerID("alice")),
            PositionUpdate(
                fix: LocationFix(lat: 30.2849, lon: -97.7341, tst: movedAt, acc: 5), moved: true, lastMovedAt: movedAt))
        let escalation = try await escalations.next(EscalationEvent.self)
        #expect(escalation.reason == .noMovement)
        #expect(escalation.at >= movedAt + stillFor)
        #expect(escalation.lastFix?.tst == movedAt)
        await w.shutdown()
    }

    @Test func aWalkPastItsETAGetsWalkOverdue() async throws {
        let w = try await watchdog([
            "SAFEWALK_CHECKIN_INTERVAL": Self.quiet, "SAFEWALK_NO_MOVEMENT_AFTER": Self.quiet,
            "SAFEWALK_OFFLINE_GRACE": Self.quiet,
        ])
        let escalations = try await w.subscribe("safewalk/alice/escalation")
        let statuses = try await w.subscribe("safewalk/alice/status")
        try await w.act("alice", .startWalk(destination: "PCL Library", minutes: 0.02))
        let status = try await statuses.next(WatchStatus.self)
        let eta = try #require(status.walk?.eta)
        let escalation = try await escalations.next(EscalationEvent.self)
        #expect(escalation.reason == .walkOverdue)
        #expect(escalation.walk == WalkPlan(destination: "PCL Library", eta: eta))
        #expect(escalation.at >= eta && escalation.at < eta + 1)
        await w.shutdown()
    }

    @Test func theNeedHelpQuickReplyEscalatesAtOnce() async throws {
        let w = try await watchdog(["SAFEWALK_CHECKIN_INTERVAL": Self.quiet, "SAFEWALK_NO_MOVEMENT_AFTER": Self.quiet])
        let escalations = try await w.subscribe("safewalk/alice/escalation")
        let statuses = try await w.subscribe("safewalk/alice/status")
        try await w.act("alice", .start)
        _ = try await statuses.next(WatchStatus.self)
        let sent = now()
        try await w.send(.reply(try WalkerID("alice")), Reply(text: "I need help 🚨", quickReply: true, tst: sent))
        let escalation = try await escalations.next(EscalationEvent.self)
        #expect(escalation.reason == .needHelp)
        #expect(escalation.level == .red)
        // "At once": every timed rule is 600 s away, so only the reply can have raised it. (A
        // wall-clock bound here failed on a loaded machine; real time is for the benchmarks.)
        #expect(escalation.at < sent + 600)
        await w.shutdown()
    }

    @Test func imSafeInTimeNeverEscalates() async throws {
        let w = try await watchdog([
            "SAFEWALK_CHECKIN_INTERVAL": "0.5", "SAFEWALK_NO_REPLY_AFTER": "1.5",
            "SAFEWALK_NO_MOVEMENT_AFTER": Self.quiet, "SAFEWALK_OFFLINE_GRACE": Self.quiet,
        ])
        let aliceEscalations = Collector(try await w.subscribe("safewalk/alice/escalation"))
        let bobEscalations = try await w.subscribe("safewalk/bob/escalation")
        let alicePrompts = try await w.subscribe("safewalk/alice/prompt")
        let answering = Task {
            for await _ in alicePrompts { try await w.act("alice", .imSafe) }
        }
        let aliceStatus = try await w.subscribe("safewalk/alice/status")
        try await w.act("alice", .start)
        _ = try await aliceStatus.next(WatchStatus.self)
        // bob starts later and never answers: his escalation comes after alice's would have.
        try await w.act("bob", .start)
        _ = try await bobEscalations.next(EscalationEvent.self)
        // ...and alice is still being prompted and answering afterwards.
        let cycles = try await aliceStatus.first(4).map { try SafeWalkJSON.decode(WatchStatus.self, from: $0.payload) }
        #expect(cycles.contains { $0.state == .checking })
        #expect(aliceEscalations.messages.isEmpty)
        answering.cancel()
        aliceEscalations.stop()
        await w.shutdown()
    }
}

/// Collects every message of a subscription in the background, for "nothing arrived" checks
/// made after a later event proved time has passed.
final class Collector: Sendable {
    private final class Received: Sendable {
        let messages = Mutex<[MQTTMessage]>([])
    }

    private let received = Received()
    private let task: Task<Void, Never>

    init(_ subscription: MQTTSubscription) {
        let received = received
        task = Task {
            for await message in subscription { received.messages.withLock { $0.append(message) } }
        }
    }

    var messages: [MQTTMessage] { received.messages.withLock { $0 } }

    func stop() { task.cancel() }
}
