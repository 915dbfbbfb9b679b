import Foundation
import SafeWalkCore
import SafeWalkService
import TestSupport
import Testing

/// One instance per data directory: a second is refused with the holder's pid, a standby waits
/// for the lock and gets it once the holder lets go. `flock` locks belong to an open file, so two
/// opens in this one process conflict as two processes would.
@Suite struct InstanceLockTests {
    func temporaryLockPath() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return InstanceLock.path(in: directory, service: "watchdog")
    }

    @Test func aSecondAcquireIsRefusedNamingTheHolder() throws {
        let path = try temporaryLockPath()
        let first = try InstanceLock.acquire(path: path)
        let refusal = #expect(throws: InstanceLock.Held.self) { try InstanceLock.acquire(path: path) }
        #expect(refusal?.holder == getpid())
        #expect(refusal?.description.contains("SAFEWALK_STANDBY=true") == true)
        extendLifetime(first)
    }

    /// Asked again until it succeeds, within seconds: while another test of this process spawns a
    /// child, the child holds a copy of every descriptor, this lock's too, until its `exec` closes
    /// them (`O_CLOEXEC`), and a `flock` lock lasts as long as any copy (a full test run here met that
    /// window). A lock never let go still fails the test.
    @Test func theLockIsFreeOnceItsHolderLetsGo() async throws {
        let path = try temporaryLockPath()
        do { _ = try InstanceLock.acquire(path: path) }
        try await eventually("the lock acquired again", within: 5) { (try? InstanceLock.acquire(path: path)) != nil }
    }

    @Test func aStandbyWaitsForTheHolderAndThenHoldsTheLock() async throws {
        let path = try temporaryLockPath()
        var first: InstanceLock? = try InstanceLock.acquire(path: path)
        let standby = Task { try await InstanceLock.waitToAcquire(path: path) }
        // Still held by the first.
        #expect(throws: InstanceLock.Held.self) { try InstanceLock.acquire(path: path) }
        extendLifetime(first)
        first = nil  // the holder exits
        let second = try await withTimeout(10, "the standby's lock") { try await standby.value }
        #expect(throws: InstanceLock.Held.self) { try InstanceLock.acquire(path: path) }
        extendLifetime(second)
    }

    @Test func aSecondServiceOnTheSameDataDirectoryExitsWithCode4() async throws {
        let broker = try await MosquittoBroker.start()
        let observer = try await broker.client()
        let status = try await observer.subscribe(Topic.serviceStatus(.notifier).name(), qos: .atLeastOnce)
        let running = try ServiceProcess.start(.notifier, broker: broker)
        #expect(try await status.first(1, within: 20).map(\.string) == ["online"])
        let data = running.logFile.deletingLastPathComponent()
        let second = try ServiceProcess.start(
            .notifier, broker: broker, environment: ["SAFEWALK_DATA_DIR": data.path])
        #expect(try await second.waitForExit(within: 20) == 4, "\(second.output)")
        #expect(second.output.contains("another instance holds"), "\(second.output)")
        #expect(second.output.contains("pid \(running.pid)"), "\(second.output)")
        // The running one was not disturbed: it is still connected and stops cleanly.
        #expect(running.exitStatusIfEnded() == nil)
        running.signal(SIGTERM)
        #expect(try await running.waitForExit(within: 10) == 0, "\(running.output)")
        await observer.shutdown(); await broker.shutdown()
    }
}
