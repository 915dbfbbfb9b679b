import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// A standby watchdog on the same data directory (`SAFEWALK_STANDBY=true`) waits on the
/// instance lock and, when the running one is SIGKILLed, takes over its watches and its broker
/// session: the walk it was watching escalates once, from the standby.
@Suite(.timeLimit(.minutes(2))) struct StandbyTests {
    @Test func aStandbyTakesOverTheWatchesOfAKilledWatchdogAndEscalatesOnce() async throws {
        let w = try await WatchdogProcess.walkOnly(on: try await MosquittoBroker.start())
        try await w.start()
        var standbyEnvironment = w.environment
        standbyEnvironment["SAFEWALK_STANDBY"] = "true"
        let standby = try ChildProcess(
            try Executables.product("watchdog").path, [], environment: standbyEnvironment,
            logFile: w.dataDirectory.appendingPathComponent("standby.log"))
        try await eventually("the standby is waiting for the lock") {
            standby.output.contains("standing by")
        }
        #expect(standby.exitStatusIfEnded() == nil, "a standby waits instead of exiting: \(standby.output)")

        let escalations = Collector(try await w.subscribe("safewalk/alice/escalation"))
        let bobEscalations = try await w.subscribe("safewalk/bob/escalation")
        let statuses = try await w.subscribe("safewalk/alice/status")
        let eta = try await w.startShortWalk(statuses)
        try await w.kill()  // the status was published after the watch was written

        // The standby is the only watchdog left: the overdue walk can only be its escalation.
        try await w.waitFor(.online)
        try await eventually("alice's overdue walk escalates") { !escalations.messages.isEmpty }
        let escalation = try SafeWalkJSON.decode(EscalationEvent.self, from: escalations.messages[0].payload)
        #expect(escalation.reason == .walkOverdue)
        #expect(escalation.at > eta)
        #expect(standby.output.contains("taking over"), "\(standby.output)")
        #expect(standby.output.contains("sessionPresent=true"), "the killed one's session: \(standby.output)")
        // bob's needHelp goes through the standby's loop after alice's: a later event, so alice
        // had time for a second escalation, and there is none.
        try await w.act("bob", .needHelp)
        _ = try await bobEscalations.next(EscalationEvent.self)
        #expect(escalations.messages.count == 1)
        escalations.stop()

        standby.signal(SIGTERM)
        #expect(try await standby.waitForExit(within: 10) == 0, "\(standby.output)")
        await w.shutdown()
    }
}
