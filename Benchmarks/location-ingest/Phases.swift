import Foundation
import LocationIngestKit
import Logging
import SafeWalkMQTT
import SafeWalkService
import Synchronization
import TestSupport

/// Publishes `messages` at QoS 1 as devices do: one task per device topic, publishing its
/// fixes in order and awaiting each PUBACK before the next (a phone's MQTT queue), all devices
/// at once, spread over `publishers` connections.
func publishAll(_ messages: [MQTTMessage], port: Int, publishers: Int) async throws {
    let clients = try await (0..<publishers).asyncMap { i in try await connect("bench-pub-\(i)", port: port) }
    var devices: [String: [MQTTMessage]] = [:]
    for message in messages { devices[message.topic, default: []].append(message) }
    try await withThrowingTaskGroup(of: Void.self) { group in
        for (index, fixes) in devices.values.enumerated() {
            let client = clients[index % clients.count]
            group.addTask {
                for fix in fixes { try await client.publish(fix) }
            }
        }
        try await group.waitForAll()
    }
    for client in clients { await client.shutdown() }
}

func connect(_ id: String, port: Int, cleanSession: Bool = true) async throws -> MQTTClient {
    var logger = Logger(label: id)
    logger.logLevel = .warning
    let client = try MQTTClient(
        configuration: MQTTConfiguration(port: port, clientID: id, cleanSession: cleanSession),
        logger: logger)
    try await client.connect()
    return client
}

/// Polls `done` every 2 ms (real time: this is a benchmark) and returns the seconds since `start`.
func secondsUntil(
    _ start: ContinuousClock.Instant, within limit: Double = 120, progress: () -> String = { "" },
    until done: () -> Bool
) async throws -> Double {
    while !done() {
        guard ContinuousClock.now - start < .seconds(limit) else {
            throw HarnessError.timedOut("benchmark phase: \(progress())")
        }
        try await Task.sleep(for: .milliseconds(2))
    }
    return seconds(ContinuousClock.now - start)
}

/// Seconds from `start` until `counted()` reaches all of `messages`. At QoS 0 (every message's
/// QoS is the same) the broker may drop what it cannot deliver, so it also ends once the count
/// has not grown for 5 s, and then gives the seconds until it last grew: the rate of what arrived.
func secondsUntilAll(
    _ messages: [MQTTMessage], since start: ContinuousClock.Instant, progress: () -> String,
    counted: () -> Int
) async throws -> Double {
    let lossy = messages.first?.qos == .atMostOnce
    var last = (count: -1, at: ContinuousClock.now)
    let elapsed = try await secondsUntil(
        start, progress: progress,
        until: {
            let count = counted()
            if count != last.count { last = (count, ContinuousClock.now) }
            return count >= messages.count || (lossy && ContinuousClock.now - last.at > .seconds(5))
        })
    guard last.count < messages.count else { return elapsed }
    return seconds(last.at - start)
}

/// Baseline: a plain subscriber that only counts the messages, subscribed at their QoS.
func rawPhase(_ messages: [MQTTMessage], port: Int, publishers: Int) async throws -> (
    seconds: Double, received: Int, highWater: Int
) {
    let qos = messages.first?.qos ?? .atLeastOnce
    let subscriber = try await connect("bench-raw-\(qos.rawValue)", port: port)
    let subscription = try await subscriber.subscribe("owntracks/+/+", qos: qos)
    let count = Counter()
    let consumer = Task { for await batch in subscription.batches { count.add(batch.count) } }
    let start = ContinuousClock.now
    try await publishAll(messages, port: port, publishers: publishers)
    let seconds = try await secondsUntilAll(
        messages, since: start, progress: { "raw received \(count.value)" }, counted: { count.value })
    let highWater = subscription.highWaterMark
    subscription.cancel()
    _ = await consumer.value
    await subscriber.shutdown()
    return (seconds, count.value, highWater)
}

/// location-ingest in process: the real service type on its own MQTT connection and SQLite
/// file, measured until every fix is accepted and committed to history. It subscribes at QoS 1
/// as in production; the messages' own QoS decides what the broker delivers.
func ingestPhase(_ messages: [MQTTMessage], port: Int, publishers: Int, dataDirectory: URL)
    async throws -> (seconds: Double, stats: IngestStats.Snapshot, rows: Int, highWater: Int)
{
    var logger = Logger(label: "bench.ingest")
    logger.logLevel = .warning
    // A clean session: a persistent one would make the broker queue every later round's
    // messages for this client after it left (production ingest keeps its session).
    let client = try await connect("bench-location-ingest", port: port, cleanSession: true)
    let store = try TrackStore.open(directory: dataDirectory, logger: logger)
    let settings = IngestSettings()
    let stats = IngestStats()
    let subscriptions = try await LocationIngestService.subscribe(bus: client, prefix: "safewalk")
    let service = LocationIngestService(
        bus: client, prefix: "safewalk",
        core: IngestCore(prefix: "safewalk", settings: settings, tracks: try store.loadTracks()),
        store: store,
        reporter: RejectionReporter(service: .locationIngest, prefix: "safewalk", bus: client, logger: logger),
        stats: stats, logger: logger, subscriptions: subscriptions)
    let running = Task { try await service.run() }
    let start = ContinuousClock.now
    try await publishAll(messages, port: port, publishers: publishers)
    let seconds = try await secondsUntilAll(
        messages, since: start, progress: { "\(stats.snapshot)" },
        counted: {
            let s = stats.snapshot
            return min(s.stored, s.accepted)
        })
    let highWater = subscriptions.map(\.highWaterMark).max() ?? 0
    running.cancel()
    _ = await running.result
    await client.shutdown()
    return (seconds, stats.snapshot, try store.historyCount(), highWater)
}

final class Counter: Sendable {
    private let count = Mutex(0)
    func add(_ n: Int) { count.withLock { $0 += n } }
    var value: Int { count.withLock { $0 } }
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
