import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// The window acknowledged actions close: the broker has delivered a `needHelp` (and the client
/// library has acknowledged it), but the watchdog dies before its commit. The device repeats the
/// action with the same id until it sees `{w}/action/result`; after the restart the repeat
/// escalates, exactly once.
@Suite(.timeLimit(.minutes(2))) struct CrashBeforeCommitTests {
    /// Holds SQLite's write lock on `path` from another process (Python's sqlite3), so the
    /// watchdog's commit waits in its busy timeout (5 s): the moment between delivery and commit,
    /// held open without any hook in production code.
    final class WriteLock: Sendable {
        let process: ChildProcess

        init(_ path: String) async throws {
            let script = """
                import sqlite3, sys, time
                db = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
                db.execute("BEGIN IMMEDIATE")
                print("locked", flush=True)
                time.sleep(60)
                """
            process = try ChildProcess(
                "/usr/bin/env", ["python3", "-c", script, path],
                environment: ProcessInfo.processInfo.environment,
                logFile: URL(fileURLWithPath: path + ".lock.log"))
            try await eventually("the write lock is held") { self.process.output.contains("locked") }
        }

        func release() async {
            process.signal(SIGKILL)
            _ = try? await process.waitForExit(within: 10)
        }
    }

    @Test func aCryLostToACrashBeforeTheCommitIsRepeatedByTheDeviceAndEscalatesOnce() async throws {
        let broker = try await MosquittoBroker.start()
        let w = try await WatchdogProcess(broker: broker, thresholds: ["SAFEWALK_CHECKIN_INTERVAL": "600"])
        try await w.start()
        let escalations = try await w.subscribe("safewalk/+/escalation")
        let answers = try await w.subscribe("safewalk/alice/action/result")
        let lock = try await WriteLock(w.dataDirectory.appendingPathComponent("watchdog.sqlite").path)
        let help = Action(id: "help-once", kind: .needHelp)
        try await w.send(.action(try WalkerID("alice")), help)
        // Give the broker time to deliver it; the watchdog now waits on the lock to commit it.
        try await Task.sleep(for: .seconds(1.5))
        try await w.kill()
        await lock.release()
        // It had decided to escalate, and was killed while waiting to commit: nothing went out.
        #expect(w.log.contains("escalating"), "the watchdog never received the cry: \(w.log)")
        #expect(!w.log.contains("escalation published") && !w.log.contains("could not persist"), "\(w.log)")

        try await w.start()
        // The device repeats the same action until it is answered, as the contract asks.
        let answer = try await withTimeout(30, "the action is answered") {
            while true {
                try await w.send(.action(try WalkerID("alice")), help)
                if let message = try? await answers.first(1, within: 1) {
                    return try SafeWalkJSON.decode(ActionResult.self, from: message[0].payload)
                }
            }
        }
        #expect(answer == ActionResult(id: "help-once", ok: true))
        let escalation = try await escalations.next(EscalationEvent.self)
        #expect(escalation.walker.rawValue == "alice" && escalation.reason == .needHelp)
        // bob's escalation after more repeats of alice's proves nothing else came for alice.
        try await w.send(.action(try WalkerID("alice")), help)
        try await w.act("bob", .needHelp)
        #expect(try await escalations.next(EscalationEvent.self).walker.rawValue == "bob")
        await w.shutdown()
    }
}
