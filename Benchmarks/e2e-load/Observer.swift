import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import Synchronization

/// An operator's view of the run: every prompt, escalation, alert, contacts result, rejection,
/// service status and the broker's own `$SYS` counters, each stamped with its arrival time.
/// Persistent session (stable id, clean session off), so a broker restart loses none of them.
final class Observer: Sendable {
    struct Prompt: Sendable { var at: Double; var replyBy: Double }
    struct Escalation: Sendable { var id: String; var reason: EscalationReason; var at: Double; var received: Double }
    /// A device alert: the escalation id it carries (nil without one) and when it arrived.
    struct Alert: Sendable { var id: String?; var received: Double }

    struct Record: Sendable {
        var prompts: [Int: [Prompt]] = [:]
        var escalations: [Int: [Escalation]] = [:]
        /// Each alert, by walker.
        var alerts: [Int: [Alert]] = [:]
        var contactResults = 0
        var rejections: [String: Int] = [:]
        var services: [String: (String, Double)] = [:]
        var sys: [String: Double] = [:]
        var brokerStoredMax = 0.0
    }

    let client: MQTTClient
    private let record = Mutex(Record())
    private let tasks = Mutex<[Task<Void, Never>]>([])

    /// `persistent: false` for a look that ends before the measured part of a run (the cost run):
    /// a persistent session would make the broker queue every later message for it.
    /// `failover`: the other nodes of a NATS cluster, which has no `$SYS` counters either.
    init(node: MQTTNode, failover: [MQTTNode] = [], logger: Logger, persistent: Bool = true) async throws {
        client = try MQTTClient(
            configuration: MQTTConfiguration(
                host: node.host, port: node.port, clientID: persistent ? "load-observer" : "load-observer-once",
                cleanSession: !persistent,
                keepAliveSeconds: 20, reconnectDelayMax: 2, failover: failover),
            logger: logger)
        try await client.connect()
        let sys =
            failover.isEmpty
            ? [
                "$SYS/broker/store/messages/count", "$SYS/broker/publish/messages/received",
                "$SYS/broker/publish/messages/sent", "$SYS/broker/bytes/received", "$SYS/broker/bytes/sent",
            ] : []
        let filters =
            [
                "safewalk/+/prompt/#", "safewalk/+/escalation", "safewalk/+/alert", "safewalk/+/contacts/result",
                "safewalk/_rejected/+", "safewalk/_service/#",
            ] + sys
        for filter in filters {
            let subscription = try await client.subscribe(
                filter, qos: filter.hasPrefix("$SYS") ? .atMostOnce : .atLeastOnce)
            let task = Task { for await batch in subscription.batches { self.take(batch) } }
            tasks.withLock { $0.append(task) }
        }
    }

    var snapshot: Record { record.withLock { $0 } }

    private static func walkerIndex(_ walker: WalkerID) -> Int? {
        walker.rawValue.first == "w" ? Int(walker.rawValue.dropFirst()) : nil
    }

    private func take(_ batch: [MQTTMessage]) {
        let now = epochNow()
        record.withLock { r in
            for message in batch {
                if message.topic.hasPrefix("$SYS/") {
                    let value = Double(message.string ?? "") ?? 0
                    r.sys[message.topic] = value
                    if message.topic.hasSuffix("store/messages/count") {
                        r.brokerStoredMax = max(r.brokerStoredMax, value)
                    }
                    continue
                }
                guard let topic = Topic.parse(message.topic) else { continue }
                switch (topic.kind, topic.subject) {
                case (.prompt, .walker(let w)):
                    if let n = Self.walkerIndex(w),
                        let p = try? SafeWalkJSON.decode(CheckInPrompt.self, from: message.payload)
                    {
                        r.prompts[n, default: []].append(Prompt(at: p.at, replyBy: p.replyBy))
                    }
                case (.escalation, .walker(let w)):
                    if let n = Self.walkerIndex(w),
                        let e = try? SafeWalkJSON.decode(EscalationEvent.self, from: message.payload)
                    {
                        r.escalations[n, default: []].append(
                            Escalation(id: e.id, reason: e.reason, at: e.at, received: now))
                    }
                case (.alert, .walker(let w)):
                    if let n = Self.walkerIndex(w) {
                        let alert = try? SafeWalkJSON.decode(DeviceAlert.self, from: message.payload)
                        r.alerts[n, default: []].append(Alert(id: alert?.id, received: now))
                    }
                case (.contactsResult, _):
                    r.contactResults += 1
                case (.rejected, .service(let service)):
                    let reason =
                        (try? JSONSerialization.jsonObject(with: message.payload) as? [String: Any])?["reason"]
                        as? String
                    r.rejections["\(service)/\(reason ?? "?")", default: 0] += 1
                case (.serviceStatus, _):
                    // By instance: `_service/watchdog/1` is partition 1's watchdog.
                    let key = message.topic.split(separator: "/").dropFirst(2).joined(separator: "/")
                    r.services[key] = (message.string ?? "", now)
                default:
                    break
                }
            }
        }
    }

    /// Waits until `instance` has announced `online` on its own status topic after `since`
    /// (epoch seconds).
    func waitOnline(_ instance: Instance, since: Double, within seconds: Double = 60) async throws {
        let deadline = epochNow() + seconds
        while epochNow() < deadline {
            if let (state, at) = snapshot.services[instance.statusKey], state == "online", at >= since { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw BenchError.failed("\(instance) not online within \(seconds) s")
    }

    func shutdown() async {
        await client.shutdown()
        for task in tasks.withLock({ $0 }) { task.cancel() }
    }
}

enum BenchError: Error, CustomStringConvertible {
    case failed(String)
    var description: String { if case .failed(let why) = self { why } else { "" } }
}
