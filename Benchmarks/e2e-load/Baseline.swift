import Foundation
import Logging
import SafeWalkMQTT
import Synchronization

/// The raw broker in the same run, before any service starts: the same fix traffic (same
/// walkers, same connections, same schedule) received by a plain subscriber that only counts,
/// then a burst as fast as the phones' connections can publish, for the broker's ceiling.
struct BaselineResult: Sendable {
    var seconds: Double
    var published: Int
    var received: Int
    var receivedPerSecond: Double
    var brokerCPU: Double
    var benchCPU: Double
    var burstCount: Int
    var burstReceived: Int
    var burstPerSecond: Double
}

enum Baseline {
    static func run(
        fleet: Fleet, port: Int, brokerPID: pid_t, seconds: Double, burst: Int,
        logger: Logger
    ) async throws -> BaselineResult {
        let subscriber = try MQTTClient(
            configuration: MQTTConfiguration(
                port: port, clientID: "load-baseline",
                cleanSession: true), logger: logger)
        try await subscriber.connect()
        defer { Task { await subscriber.shutdown() } }
        let fixes = try await subscriber.subscribe("safewalk/+/fix", qos: .atLeastOnce)
        let counter = Counter()
        let counting = Task { for await batch in fixes.batches { counter.add(batch.count) } }

        let start = epochNow() + 0.5
        let broker0 = ProcSample.read(brokerPID)?.cpuSeconds ?? 0
        let bench0 = ProcSample.this()?.cpuSeconds ?? 0
        let acked0 = fleet.ackedTotal
        await fleet.runFixesOnly(from: start, until: start + seconds)
        let end = epochNow()
        try await Task.sleep(for: .milliseconds(500))
        let received = counter.value
        let brokerCPU = (ProcSample.read(brokerPID)?.cpuSeconds ?? 0) - broker0
        let benchCPU = (ProcSample.this()?.cpuSeconds ?? 0) - bench0
        let published = fleet.ackedTotal - acked0

        // Burst: `burst` fixes at once, spread over the connections; rate = first to last arrival.
        counter.reset()
        let burstStart = epochNow()
        await withDiscardingTaskGroup { group in
            for c in fleet.clients.indices {
                group.addTask {
                    let client = fleet.clients[c]
                    await withDiscardingTaskGroup { inner in
                        for i in stride(from: c, to: burst, by: fleet.clients.count) {
                            inner.addTask {
                                let payload = Data(
                                    String(
                                        format: #"{"v":1,"lat":30.1,"lon":-97.7,"tst":%.3f,"acc":3}"#,
                                        burstStart + Double(i) * 1e-4
                                    ).utf8)
                                try? await client.publish(
                                    MQTTMessage(
                                        topic: "safewalk/burst\(i % 10_000)/fix", payload: payload, qos: .atLeastOnce))
                            }
                        }
                    }
                }
            }
        }
        let deadline = epochNow() + 30
        while counter.value < burst, epochNow() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let burstSeconds = counter.lastAt - burstStart
        counting.cancel()
        fixes.cancel()
        return BaselineResult(
            seconds: end - start, published: published, received: received,
            receivedPerSecond: Double(received) / (end - start), brokerCPU: brokerCPU, benchCPU: benchCPU,
            burstCount: burst, burstReceived: counter.value,
            burstPerSecond: Double(counter.value) / max(burstSeconds, 0.001))
    }
}

/// A message counter that also remembers when the last message came.
final class Counter: Sendable {
    private let state = Mutex<(Int, Double)>((0, 0))
    func add(_ n: Int) {
        let now = epochNow();
        state.withLock {
            $0.0 += n; $0.1 = now
        }
    }
    func reset() { state.withLock { $0 = (0, 0) } }
    var value: Int { state.withLock { $0.0 } }
    var lastAt: Double { state.withLock { $0.1 } }
}
