import CompanionChatKit
import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import Synchronization

/// The simulated phones: `plan.walkers` walkers multiplexed over `plan.connections` MQTT
/// connections (walker n on connection n % connections; an unsecured broker lets one connection
/// publish for many walkers). Each walker sends `start`, then a fix every `fixInterval` seconds
/// (QoS 1, 20 m further north each time, accuracy 3 m: always movement) and answers each
/// companion check-in on `{w}/chat` with the quick reply "I'm okay 👍" (QoS 1), until its
/// silence (if any), after which it sends nothing. A fix counts as acknowledged on its PUBACK.
final class Fleet: Sendable {
    struct Walker: Sendable {
        var startAt: Double
        var silentAt: Double?
        var nextFix: Double
        var fixes = 0
        var lastFixTst = 0.0
        var started = false
        var stopped = false
    }

    let plan: LoadPlan
    let clients: [MQTTClient]
    let reader: MQTTClient
    private let walkers: Mutex<[Walker]>
    private let acked: Mutex<[Int]>
    private let publishFailures = Atomic<Int>(0)
    let replies = Atomic<Int>(0)

    /// Connection c is at home on node c of `endpoint` (one node for Mosquitto), the reader on
    /// node 1, each with the other nodes to fail over to.
    init(
        plan: LoadPlan, endpoint: (_ home: Int) -> (node: MQTTNode, failover: [MQTTNode]), logger: Logger
    ) async throws {
        self.plan = plan
        var clients: [MQTTClient] = []
        for c in 0..<plan.connections {
            let (node, failover) = endpoint(c)
            let client = try MQTTClient(
                configuration: MQTTConfiguration(
                    host: node.host, port: node.port, clientID: "load-phones-\(c)", cleanSession: false,
                    keepAliveSeconds: 20, reconnectDelayMax: 2, failover: failover),
                logger: logger)
            try await client.connect()
            clients.append(client)
        }
        self.clients = clients
        let (node, failover) = endpoint(1)
        reader = try MQTTClient(
            configuration: MQTTConfiguration(
                host: node.host, port: node.port, clientID: "load-phones-reader", cleanSession: false,
                keepAliveSeconds: 20, reconnectDelayMax: 2, failover: failover),
            logger: logger)
        try await reader.connect()
        walkers = Mutex(Array(repeating: Walker(startAt: 0, nextFix: 0), count: plan.walkers))
        acked = Mutex(Array(repeating: 0, count: plan.walkers))
    }

    /// Forgets the baseline's fixes (no ingest was running to store them).
    func resetAcked() { acked.withLock { $0 = Array(repeating: 0, count: $0.count) } }

    func client(for walker: Int) -> MQTTClient { clients[walker % clients.count] }

    var ackedPerWalker: [Int] { acked.withLock { $0 } }
    var ackedTotal: Int { acked.withLock { $0.reduce(0, +) } }
    var failures: Int { publishFailures.load(ordering: .relaxed) }
    func lastFixTst(_ walker: Int) -> Double { walkers.withLock { $0[walker].lastFixTst } }

    /// Every walker adds its contacts through contacts-store (`{w}/contacts/add`).
    func addContacts() async {
        await withDiscardingTaskGroup { group in
            for n in 0..<plan.walkers {
                group.addTask {
                    for k in 0..<self.plan.contacts {
                        let phone = LoadPlan.phone(walker: n, contact: k, contacts: self.plan.contacts).dialled
                        let payload = try? SafeWalkJSON.encode(ContactAdd(name: "Contact \(k)", phone: phone))
                        try? await self.client(for: n).publish(
                            MQTTMessage(
                                topic: "safewalk/\(LoadPlan.walkerID(n))/contacts/add", payload: payload ?? Data(),
                                qos: .atLeastOnce))
                    }
                }
                if n % 500 == 499 { await Task.yield() }
            }
        }
    }

    /// Publishes fixes only (no actions, no answers): the raw-broker baseline's traffic.
    func runFixesOnly(from start: Double, until end: Double) async {
        walkers.withLock { w in
            for n in w.indices {
                w[n] = Walker(startAt: start, nextFix: start + plan.fixInterval * Double(n) / Double(plan.walkers))
                w[n].started = true
            }
        }
        await publishLoop(until: end, answering: false)
    }

    /// The load itself: starts spread over the ramp from `start`, silences at the planned offsets
    /// from `windowStart`, fixes and answers until `end`.
    func run(start: Double, windowStart: Double, end: Double) async {
        walkers.withLock { w in
            for n in w.indices {
                let startAt = start + plan.ramp * Double(n) / Double(plan.walkers)
                w[n] = Walker(
                    startAt: startAt, silentAt: plan.silenceOffset(of: n).map { windowStart + $0 },
                    nextFix: startAt + 0.2)
            }
        }
        await publishLoop(until: end, answering: true)
    }

    private enum Due {
        case start(Int)
        case fix(Int, lat: Double, tst: Double)
    }

    private func publishLoop(until end: Double, answering: Bool) async {
        let chats = answering ? (try? await reader.subscribe("safewalk/+/chat", qos: .atLeastOnce)) : nil
        await withDiscardingTaskGroup { group in
            if let chats {
                group.addTask { await self.answer(chats) }
            }
            while epochNow() < end {
                let now = epochNow()
                let due: [Due] = walkers.withLock { w in
                    var due: [Due] = []
                    for n in w.indices {
                        if let silent = w[n].silentAt, now >= silent { continue }
                        if answering, !w[n].started, now >= w[n].startAt {
                            w[n].started = true
                            due.append(.start(n))
                        }
                        guard w[n].started, !w[n].stopped, now >= w[n].nextFix else { continue }
                        w[n].fixes += 1
                        w[n].nextFix += plan.fixInterval
                        w[n].lastFixTst = now
                        // 20 m north per fix, on a column of its own per walker.
                        due.append(.fix(n, lat: 30.0 + Double(w[n].fixes) * 0.00018, tst: now))
                    }
                    return due
                }
                for item in due {
                    group.addTask { await self.publish(item) }
                }
                try? await Task.sleep(for: .milliseconds(50))
            }
            chats?.cancel()
        }
    }

    private func publish(_ item: Due) async {
        switch item {
        case .start(let n):
            let payload = (try? SafeWalkJSON.encode(Action(id: "start-\(n)", kind: .start))) ?? Data()
            await send(n, "action", payload)
        case .fix(let n, let lat, let tst):
            let lon = -97.0 - Double(n) * 0.001
            let payload = Data(String(format: #"{"v":1,"lat":%.6f,"lon":%.6f,"tst":%.3f,"acc":3}"#, lat, lon, tst).utf8)
            if await send(n, "fix", payload, qos: plan.fixQoS) { acked.withLock { $0[n] += 1 } }
        }
    }

    @discardableResult
    private func send(_ n: Int, _ channel: String, _ payload: Data, qos: QoS = .atLeastOnce) async -> Bool {
        do {
            try await client(for: n).publish(
                MQTTMessage(topic: "safewalk/\(LoadPlan.walkerID(n))/\(channel)", payload: payload, qos: qos))
            return true
        } catch {
            publishFailures.add(1, ordering: .relaxed)
            return false
        }
    }

    /// Answers each companion check-in of a walker that is not silent.
    private func answer(_ chats: MQTTSubscription) async {
        let checkIns = Set(CompanionText.checkIns)
        await withDiscardingTaskGroup { group in
            for await batch in chats.batches {
                let now = epochNow()
                for message in batch {
                    guard let topic = Topic.parse(message.topic), topic.kind == .chat, let walker = topic.walker,
                        walker.rawValue.first == "w",
                        let n = Int(walker.rawValue.dropFirst()), n < plan.walkers,
                        let chat = try? SafeWalkJSON.decode(ChatMessage.self, from: message.payload),
                        checkIns.contains(chat.text)
                    else { continue }
                    let quiet = walkers.withLock { w in w[n].stopped || (w[n].silentAt.map { now >= $0 } ?? false) }
                    guard !quiet else { continue }
                    group.addTask {
                        let reply =
                            (try? SafeWalkJSON.encode(Reply(text: QuickReply.okay.text, quickReply: true, tst: now)))
                            ?? Data()
                        if await self.send(n, "reply", reply) { self.replies.add(1, ordering: .relaxed) }
                    }
                }
            }
        }
    }

    /// Ends every active walker's watch with `stop` (so nobody escalates once the load ends);
    /// silent walkers stay silent. Returns when every stop was acknowledged.
    func stopActive() async {
        let active: [Int] = walkers.withLock { w in
            var active: [Int] = []
            for n in w.indices where w[n].silentAt == nil {
                w[n].stopped = true
                active.append(n)
            }
            return active
        }
        await withDiscardingTaskGroup { group in
            for n in active {
                group.addTask {
                    let payload = (try? SafeWalkJSON.encode(Action(id: "stop-\(n)", kind: .stop))) ?? Data()
                    await self.send(n, "action", payload)
                }
            }
        }
    }

    func shutdown() async {
        for client in clients { await client.shutdown() }
        await reader.shutdown()
    }
}
