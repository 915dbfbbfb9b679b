import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// Never lose an escalation: a killed watchdog, a restarted broker, a lost phone.
@Suite(.timeLimit(.minutes(2))) struct RecoveryTests {
    static let quiet = "600"

    @Test func aWatchdogKilledDuringAWalkEscalatesOnceWhenItComesBackAfterTheETA() async throws {
        let w = try await WatchdogProcess.walkOnly(on: try await MosquittoBroker.start())
        try await w.start()
        let escalations = Collector(try await w.subscribe("safewalk/alice/escalation"))
        let bobEscalations = try await w.subscribe("safewalk/bob/escalation")
        let statuses = try await w.subscribe("safewalk/alice/status")
        let eta = try await w.startShortWalk(statuses)
        try await w.kill()  // the status was published after the watch was written
        // The ETA passes while the watchdog is down (the wall clock is what we wait for here).
        try await eventually("the walk's ETA passes while the watchdog is down") { now() > eta + 0.2 }
        #expect(escalations.messages.isEmpty, "nobody was left to escalate")

        try await w.start()
        // An unacknowledged status from before the kill may be re-sent first (at least once).
        var recovered = try await statuses.next(WatchStatus.self)
        if recovered.state != .alert { recovered = try await statuses.next(WatchStatus.self) }
        #expect(recovered.state == .alert)
        #expect(recovered.reason == .walkOverdue)
        // bob's needHelp goes through the same loop after recovery: a positive event to wait for.
        try await w.act("bob", .needHelp)
        _ = try await bobEscalations.next(EscalationEvent.self)
        let events = try escalations.messages.map { try SafeWalkJSON.decode(EscalationEvent.self, from: $0.payload) }
        #expect(events.count == 1)
        #expect(events.first?.reason == .walkOverdue)
        #expect((events.first?.at ?? 0) > eta)
        escalations.stop()
        await w.shutdown()
    }

    @Test func anEscalationDueWhileTheBrokerIsDownArrivesWhenItReturns() async throws {
        let broker = try await MosquittoBroker.start(persistence: true)
        let w = try await WatchdogProcess(
            broker: broker,
            thresholds: [
                "SAFEWALK_CHECKIN_INTERVAL": Self.quiet, "SAFEWALK_NO_MOVEMENT_AFTER": Self.quiet,
                "SAFEWALK_OFFLINE_GRACE": Self.quiet,
            ])
        try await w.start()
        // A persistent session, so the broker keeps what arrives while this client reconnects.
        let observer = try await broker.client("observer-\(UUID().uuidString.prefix(6))", cleanSession: false)
        let escalations = try await observer.subscribe("safewalk/alice/escalation", qos: .atLeastOnce)
        let statuses = try await w.subscribe("safewalk/alice/status")
        try await w.act("alice", .startWalk(destination: "Union", minutes: 0.01))
        let eta = try #require(try await statuses.next(WatchStatus.self).walk?.eta)

        await broker.stop()
        try await eventually("the watchdog fires while the broker is down", within: 15) {
            w.log.contains("escalating")
        }
        #expect(Loopback.isAccepting(port: broker.port) == false)
        try await broker.start()
        let escalation = try await escalations.next(EscalationEvent.self, within: 30)
        #expect(escalation.reason == .walkOverdue)
        #expect(escalation.at >= eta)
        await observer.shutdown()
        await w.shutdown()
    }

    @Test func aPhonesLastWillDuringAWatchEscalatesTrackerOfflineAfterTheGrace() async throws {
        let broker = try await MosquittoBroker.start()
        let w = try await WatchdogProcess(
            broker: broker,
            thresholds: [
                "SAFEWALK_CHECKIN_INTERVAL": Self.quiet, "SAFEWALK_NO_MOVEMENT_AFTER": Self.quiet,
                "SAFEWALK_OFFLINE_GRACE": "1",
            ])
        try await w.start()
        let escalations = try await w.subscribe("safewalk/alice/escalation")
        let presence = try await w.subscribe("safewalk/alice/presence")
        let statuses = try await w.subscribe("safewalk/alice/status")
        // The "phone": a real MQTT client whose Last Will is `offline` on its presence topic.
        let phone = try ChildProcess(
            try Executables.find("mosquitto_sub", in: ["/usr/bin"]).path,
            [
                "-h", "127.0.0.1", "-p", "\(broker.port)", "-i", "phone-alice", "-t", "safewalk/alice/chat",
                "-k", "5", "--will-topic", "safewalk/alice/presence", "--will-payload", "offline",
                "--will-qos", "1", "--will-retain",
            ],
            logFile: w.dataDirectory.appendingPathComponent("phone.log"))
        try await eventually("the phone is connected") { await broker.log.contains("phone-alice") }
        try await w.act("alice", .start)
        _ = try await statuses.next(WatchStatus.self)

        let killedAt = now()
        phone.signal(SIGKILL)  // the phone dies: the broker publishes its Last Will
        _ = try await phone.waitForExit()
        let will = try await presence.first(1, within: 15)[0]
        #expect(will.string == "offline")
        let escalation = try await escalations.next(EscalationEvent.self)
        #expect(escalation.reason == .trackerOffline)
        #expect(escalation.level == .amber)
        // Measured from the kill, which precedes the Last Will: when this test happened to see
        // the will is later than when the watchdog did, under load by a few hundred ms.
        #expect(now() - killedAt >= 0.9, "not before the grace period")
        await w.shutdown()
    }
}
