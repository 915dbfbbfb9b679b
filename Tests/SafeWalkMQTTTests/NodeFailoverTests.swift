import Foundation
import Logging
import SafeWalkMQTT
import Synchronization
import TestSupport
import Testing

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
