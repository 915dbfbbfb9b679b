import Foundation
import Logging
import Synchronization
import TestSupport
import Testing

@testable import SafeWalkMQTT

@Suite("A client moves to another broker node when its node is gone", .holdsResources)
struct NodeFailoverTests {
    final class Moves: MQTTObserver {
        let count = Mutex(0)
        func didReceive(topic: String, bytes: Int) {}
        func didPublish(topic: String, qos: QoS) {}
        func didConnect(sessionPresent: Bool) {}
        func didLoseConnection() {}
        func didMoveNode() { count.withLock { $0 += 1 } }
    }

    static func client(_ id: String, first: Int, then others: [Int], observer: Moves? = nil) throws -> MQTTClient {
        var logger = Logger(label: "test.\(id)")
        logger.logLevel = .warning
        return try MQTTClient(
            configuration: MQTTConfiguration(
                port: first, clientID: id, keepAliveSeconds: 20, reconnectDelayMin: 1, reconnectDelayMax: 2,
                observer: observer, failover: others.map { MQTTNode(host: "127.0.0.1", port: $0) }),
            logger: logger)
    }

    @Test func aLostConnectionIsMadeAgainToTheNextNodeAndItsSubscriptionsWithIt() async throws {
        let first = try await MosquittoBroker.start()
        let second = try await MosquittoBroker.start()
        let moves = Moves()
        let client = try Self.client("mover", first: first.port, then: [second.port], observer: moves)
        try await withTimeout(30, "first connect") { try await client.connect() }
        #expect(client.connectedNode == MQTTNode(host: "127.0.0.1", port: first.port))
        let messages = try await client.subscribe("failover/#", qos: .atLeastOnce)

        await first.kill()
        // The two brokers share nothing (a cluster would share the session): the subscription
        // is there on the second only because the client made it again after moving.
        let publisher = try await second.client()
        let heard = Mutex(false)
        let reader = Task {
            for await message in messages where message.string == "probe" {
                heard.withLock { $0 = true }
                break
            }
        }
        try await eventually("a message published on the second node heard", within: 60) {
            try await publisher.publish("failover/alice", string: "probe")
            return heard.withLock { $0 }
        }
        reader.cancel()
        #expect(client.connectedNode == MQTTNode(host: "127.0.0.1", port: second.port))
        #expect(moves.count.withLock { $0 } == 1)

        // And its QoS 1 publishes are acknowledged there.
        let echo = try await publisher.subscribe("failover/echo", qos: .atLeastOnce)
        try await withTimeout(30, "publish after the move") {
            try await client.publish("failover/echo", string: "from the moved client", qos: .atLeastOnce)
        }
        #expect(try await echo.first(1).map(\.string) == ["from the moved client"])
        await client.shutdown(); await publisher.shutdown(); await second.shutdown(); await first.shutdown()
    }

    @Test func aFirstConnectGoesToTheNextNodeWhenTheFirstIsDown() async throws {
        let down = try Loopback.freePort()
        let up = try await MosquittoBroker.start()
        let client = try Self.client("starter", first: down, then: [up.port])
        try await withTimeout(30, "connect past the node that is down") { try await client.connect() }
        #expect(client.connectedNode == MQTTNode(host: "127.0.0.1", port: up.port))
        await client.shutdown(); await up.shutdown()
    }

    /// The node takes the connection and never answers it. Cancelled while the connect waits for
    /// the CONNACK, and before it began to wait (the waiter must not be left behind).
    @Test(arguments: [true, false])
    func aConnectToANodeThatNeverAnswersEndsWhenItsTaskIsCancelled(whileWaiting: Bool) async throws {
        let silent = try DroppingListener(dropping: false)
        let client = try Self.client("patient", first: silent.port, then: [])
        let attempt = Task { try await client.connect() }
        if whileWaiting {
            try await eventually("the connect waiting", within: 30) {
                client.state.withLock { $0.connectWaiters.count } == 1
            }
        }
        attempt.cancel()
        let outcome = try await withTimeout(30, "the cancelled connect") { await attempt.result }
        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(!client.isConnected)
        #expect(client.state.withLock { $0.connectWaiters.isEmpty })
        try await withTimeout(30, "shutdown") { await client.shutdown() }
        _ = silent
    }

    @Test func aShutdownWhileReconnectingEndsPromptly() async throws {
        let broker = try await MosquittoBroker.start()
        let client = try Self.client("quitter", first: broker.port, then: [try Loopback.freePort()])
        try await withTimeout(30, "connect") { try await client.connect() }
        await broker.kill()
        try await eventually("the loss noticed", within: 30) { client.connectionCounts.losses == 1 }
        // Both nodes are down: the network thread waits between rounds, and shutdown wakes it.
        try await withTimeout(30, "shutdown while reconnecting") { await client.shutdown() }
        #expect(client.connectedNode == nil)
    }
}

@Suite("Broker node lists")
struct MQTTNodeListTests {
    @Test func parsesHostsPortsAndBracketedAddresses() {
        #expect(
            MQTTNode.list("nats-1:1883, nats-2:1884,[::1]:1885")
                == [
                    MQTTNode(host: "nats-1", port: 1883), MQTTNode(host: "nats-2", port: 1884),
                    MQTTNode(host: "::1", port: 1885),
                ])
        #expect(MQTTNode(host: "::1", port: 1885).description == "[::1]:1885")
    }

    @Test(arguments: [
        "", "nats-1", "nats-1:", ":1883", "nats-1:0", "nats-1:70000", "a:1883,,b:1883", "a:1883,", "a b:1",
    ])
    func refusesAnythingElseWhole(_ text: String) {
        #expect(MQTTNode.list(text) == nil)
    }

    @Test func triesTheNodeItLostFirstThenTheOthersInTurn() {
        #expect(MQTTNode.attemptOrder(count: 3, after: 0) == [0, 1, 2])
        #expect(MQTTNode.attemptOrder(count: 3, after: 2) == [2, 0, 1])
        #expect(MQTTNode.attemptOrder(count: 1, after: 0) == [0])
    }
}

/// A listening socket whose accept queue is full, so the kernel drops every further SYN: what a
/// node behind a network partition looks like to a client (the connect neither succeeds nor fails).
/// With `dropping: false` the queue has room: connections are made, and nothing ever answers on
/// them (a node that is up but not serving MQTT yet).
final class DroppingListener {
    let port: Int
    private let listener: Int32
    private var queued: [Int32] = []

    init(dropping: Bool = true) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, dropping ? 0 : 16) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw HarnessError.processFailed("could not listen on loopback")
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        // Backlog 0 holds one finished handshake: one connection never accepted fills it (a
        // second blocked in connect for 134 s here, the kernel's own limit).
        if dropping { queued.append(try Loopback.connectedSocket(port: port)) }
    }

    deinit {
        for socket in queued { close(socket) }
        close(listener)
    }
}

@Suite("A node that drops connection attempts is given up on", .holdsResources)
struct DroppingNodeTests {
    @Test func theProbeAnswersForAnOpenAClosedAndADroppingPort() async throws {
        let broker = try await MosquittoBroker.start()
        let dropping = try DroppingListener()
        #expect(NodeProbe.accepts(MQTTNode(host: "127.0.0.1", port: broker.port), within: 5))
        #expect(!NodeProbe.accepts(MQTTNode(host: "127.0.0.1", port: try Loopback.freePort()), within: 5))
        #expect(!NodeProbe.accepts(MQTTNode(host: "127.0.0.1", port: dropping.port), within: 0.5))
        #expect(!NodeProbe.accepts(MQTTNode(host: "no-such-node.invalid", port: 1883), within: 0.5))
        await broker.shutdown()
    }

    @Test func aClientWhoseFirstNodeDropsConnectsToTheNext() async throws {
        let dropping = try DroppingListener()
        let broker = try await MosquittoBroker.start()
        var logger = Logger(label: "test.dropped")
        logger.logLevel = .critical
        var configuration = MQTTConfiguration(
            port: dropping.port, clientID: "dropped", reconnectDelayMax: 2,
            failover: [MQTTNode(host: "127.0.0.1", port: broker.port)])
        configuration.connectTimeoutSeconds = 1
        let client = try MQTTClient(configuration: configuration, logger: logger)
        // Without the probe libmosquitto's connect waits about two minutes for the kernel.
        try await withTimeout(60, "connect past a node that drops connection attempts") { try await client.connect() }
        #expect(client.connectedNode == MQTTNode(host: "127.0.0.1", port: broker.port))
        await client.shutdown(); await broker.shutdown()
        _ = dropping
    }
}
