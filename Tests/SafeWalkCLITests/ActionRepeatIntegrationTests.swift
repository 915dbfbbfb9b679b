import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

@testable import SafeWalkCLI

#if canImport(Glibc)
    import Glibc
#endif

/// The built `safewalk simulate` against a real Mosquitto and a watchdog that answers late.
@Suite(.holdsResources) struct ActionRepeatIntegrationTests {
    let alice = try! WalkerID("alice")

    func start(_ arguments: [String]) throws -> ChildProcess {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("safewalk-cli-\(UUID().uuidString).log")
        var environment = ProcessInfo.processInfo.environment
        for name in [
            "SAFEWALK_MQTT_HOST", "SAFEWALK_MQTT_PORT", "SAFEWALK_MQTT_USERNAME", "SAFEWALK_MQTT_PASSWORD",
            "SAFEWALK_TOPIC_PREFIX", "SAFEWALK_HOLD_HEARTBEAT",
        ] { environment[name] = nil }
        return try ChildProcess(
            try Executables.product("safewalk").path, arguments, environment: environment, logFile: log)
    }

    /// The watchdog ignores the first copy and the first repeat of every action and answers the
    /// second repeat: `start` and the `stop` sent on Ctrl-C each go out three times, with one
    /// id, and stop once answered.
    @Test func repeatsEachActionUntilTheWatchdogAnswersIt() async throws {
        let broker = try await MosquittoBroker.start()
        let watchdog = try await FakeWatchdog.start(on: broker, walker: alice, answerOnCopy: 3)
        let simulate = try start([
            "simulate", "--walker", "alice", "--interval", "0.2", "--repeat-every", "0.4",
            "--answer-timeout", "20", "--seed", "2", "--port", "\(broker.port)",
        ])
        defer { try? FileManager.default.removeItem(at: simulate.logFile) }
        let answered = watchdog.answered
        let start = try await withTimeout(15, "start answered on its third copy") {
            for await action in answered where action.kind == .start { return action }
            throw HarnessError.timedOut("start")
        }
        // The simulator has the answer when it says so (a file written by another process: polled).
        try await eventually("the simulator prints the answer to start") {
            simulate.output.contains("answer to start: ok")
        }
        simulate.signal(SIGINT)  // Ctrl-C: the simulator says goodbye with `stop`, repeated too
        let status = try await simulate.waitForExit(within: 20)
        let output = simulate.output
        #expect(status == 0, "\(output)")

        let stops = watchdog.received.filter { $0.kind == .stop }
        #expect(Set(stops.map(\.id)).count == 1, "one stop, repeated with its id")
        // Three copies each; a fourth only if the answer was slower than a repeat interval.
        #expect(watchdog.received.filter { $0.id == start.id }.count >= 3)
        #expect(watchdog.received.filter { $0.id == start.id }.count <= 4)
        #expect((3...4).contains(stops.count), "\(stops.count) copies of stop")
        #expect(output.contains("no answer yet: start again, same id (attempt 2)"), "\(output)")
        #expect(output.contains("no answer yet: stop again, same id (attempt 3)"), "\(output)")
        #expect(output.contains("answer to start: ok"), "\(output)")
        #expect(output.contains("answer to stop: ok"), "\(output)")
        #expect(!output.contains("no answer to"), "\(output)")
        await watchdog.shutdown()
        await broker.shutdown()
    }

    /// The hold-to-release story as a device plays it: PINs, start, hold, heartbeats, release,
    /// and a final stop carrying the PIN, each answered; the PINs never printed.
    @Test func holdToReleaseAndAStopWithAPIN() async throws {
        let broker = try await MosquittoBroker.start()
        let watchdog = try await FakeWatchdog.start(on: broker, walker: alice, answerOnCopy: 1)
        let simulate = try start([
            "simulate", "--walker", "alice", "--interval", "0.5", "--duration", "2.5",
            "--set-pins", "24681357:13572468", "--hold", "red", "--heartbeat", "0.3",
            "--release-after", "1.5", "--note", "Walking to my car", "--end-with-pin", "24681357",
            "--port", "\(broker.port)",
        ])
        defer { try? FileManager.default.removeItem(at: simulate.logFile) }
        let status = try await simulate.waitForExit(within: 20)
        let output = simulate.output
        #expect(status == 0, "\(output)")
        let kinds = watchdog.received.map(\.kind.name)
        #expect(Array(kinds.prefix(3)) == ["setPins", "start", "hold"], "\(kinds)")
        #expect(kinds.filter { $0 == "holding" }.count >= 2, "\(kinds)")
        let release = try #require(kinds.firstIndex(of: "release"), "\(kinds)")
        #expect(!kinds[release...].contains("holding"), "no heartbeat after the release")
        #expect(kinds.last == "stop")
        let stop = try #require(watchdog.received.last)
        #expect(stop.pin == PIN("24681357"))
        #expect(watchdog.received.first { $0.kind == .hold(.red) }?.note == "Walking to my car")
        for line in [
            "action setPins", "answer to setPins: ok", "action hold (red) \"Walking to my car\"",
            "answer to release: ok", "action stop with PIN", "answer to stop: ok",
        ] {
            #expect(output.contains(line), "\(line) in \(output)")
        }
        // Eight digits: a printed coordinate has at most five in a row, so a match is a leak.
        for secret in ["24681357", "13572468"] { #expect(!output.contains(secret)) }
        await watchdog.shutdown()
        await broker.shutdown()
    }
}
