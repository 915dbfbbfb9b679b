import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// Issue #9, hostile input: the whole corpus, kind by kind, to the five running executables.
/// After each batch every service must still handle a good message; at the end every service is
/// alive and its `safewalk_rejections_total` reads exactly, reason by reason, what its own
/// decoder says it was sent.
@Suite("Hostile input against the five running services")
struct HostileInputTests {
    /// Who may publish each kind on the secured broker (mosquitto/acl).
    static func publisher(of kind: InputKind) -> String {
        switch kind {
        case .position: ServiceName.locationIngest.rawValue
        case .prompt, .escalation: ServiceName.watchdog.rawValue
        case .contacts: ServiceName.contactsStore.rawValue
        case .fix, .owntracks, .presence, .reply, .action, .contactsAdd, .contactsRemove: SelectedCorpus.walker
        }
    }

    static let batchSize = 150

    @Test func everyServiceSurvivesCountsEveryRejectionAndKeepsWorking() async throws {
        let corpus = SelectedCorpus(now: Date().timeIntervalSince1970)
        let stack = try await ServiceStack.startForHostileInput()
        var clients: [String: MQTTClient] = [:]
        let probes = try await Probes(stack: stack)
        do {
            for user in Set(InputKind.allCases.map(Self.publisher)) { clients[user] = try await stack.client(as: user) }
            try await probes.all("before any hostile input")
            for service in ServiceStack.services { #expect(try await stack.rejections(of: service).isEmpty) }

            for kind in InputKind.allCases {
                let cases = corpus.sent(kind)
                for (index, start) in stride(from: 0, to: cases.count, by: Self.batchSize).enumerated() {
                    try await Self.publish(
                        cases[start..<min(start + Self.batchSize, cases.count)].map(\.hostile),
                        with: clients[Self.publisher(of: kind)]!)
                    try await probes.all("after \(kind) batch \(index + 1)")
                    #expect(
                        stack.exited.isEmpty, "exited after \(kind) batch \(index + 1): \(stack.exited)\n\(stack.logs)")
                }
            }
            for judged in corpus.ignored {
                try await Self.publish([judged.hostile], with: clients[Self.publisher(of: judged.hostile.kind)]!)
            }
            try await sendOverBrokerLimit(corpus.overBrokerLimit, stack: stack)
            try await probes.all("after the ignored and oversized messages")

            let expected = corpus.expectedRejections
            let counted = try await countedRejections(stack, expected: expected)
            for service in ServiceStack.services {
                #expect(
                    counted[service] == expected[service] ?? [:],
                    "\(service): counted \(counted[service] ?? [:]), sent \(expected[service] ?? [:])")
            }
            // Nothing more trickles in after a last round of good messages, and nobody died.
            try await probes.all("at the end")
            for service in ServiceStack.services {
                #expect(
                    try await stack.rejections(of: service) == expected[service] ?? [:],
                    "\(service) changed after the end")
            }
            #expect(stack.exited.isEmpty, "\(stack.exited)\n\(stack.logs)")
        } catch {
            Issue.record("\(error)\n\(stack.logs)")
        }
        for client in clients.values { await client.shutdown() }
        await probes.shutdown()
        await stack.stop()
    }

    /// Publishes at QoS 1, up to 32 awaiting their acknowledgement at once: one at a time, the
    /// round trips alone took seconds on a busy machine. Order within a batch does not matter.
    static func publish(_ cases: [HostileCase], with client: MQTTClient) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, hostile) in cases.enumerated() {
                if index >= 32 { try await group.next() }
                group.addTask { try await client.publish(MQTTMessage(topic: hostile.topic, payload: hostile.payload)) }
            }
            try await group.waitForAll()
        }
    }

    /// Waits (generously) until every counter has reached what was sent; returns what was read
    /// then, or the last reading if the counters never got there.
    func countedRejections(_ stack: ServiceStack, expected: [ServiceName: [String: Int]]) async throws -> [ServiceName:
        [String: Int]]
    {
        var last: [ServiceName: [String: Int]] = [:]
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            for service in ServiceStack.services { last[service] = try await stack.rejections(of: service) }
            let totals = { (counts: [String: Int]) in counts.values.reduce(0, +) }
            if ServiceStack.services.allSatisfy({ totals(last[$0]!) >= totals(expected[$0] ?? [:]) }) { return last }
            try await Task.sleep(for: .milliseconds(200))
        }
        return last
    }

    /// Over the broker's `message_size_limit`: from a throwaway client (the broker disconnects a
    /// client that sends a packet over `max_packet_size`), at QoS 0 so nothing is re-sent. No
    /// service may see or count them; an operator watching the topic must not receive them.
    func sendOverBrokerLimit(_ cases: [HostileCase], stack: ServiceStack) async throws {
        let limit = try Self.brokerMessageSizeLimit()
        let watcher = try await stack.client(as: SecuredBroker.observer)
        let seen = try await watcher.subscribe(InputKind.reply.topic(walkerLevel: SelectedCorpus.walker))
        let sender = try await stack.client(as: SelectedCorpus.walker)
        for hostile in cases {
            #expect(hostile.payload.count > limit)
            try? await sender.publish(MQTTMessage(topic: hostile.topic, payload: hostile.payload, qos: .atMostOnce))
        }
        await sender.shutdown()
        // A marker after them, from another client: once it arrives, the broker has dealt with both.
        let marker = Reply(text: "marker \(UUID().uuidString)", tst: Date().timeIntervalSince1970)
        let phone = try await stack.client(as: SelectedCorpus.walker)
        try await phone.publish(
            MQTTMessage(
                topic: InputKind.reply.topic(walkerLevel: SelectedCorpus.walker), payload: SafeWalkJSON.encode(marker)))
        let arrived = try await withTimeout(30, "the marker reply") {
            var sizes: [Int] = []
            for await message in seen {
                sizes.append(message.payload.count)
                if message.payload == (try? SafeWalkJSON.encode(marker)) { break }
            }
            return sizes
        }
        #expect(arrived.allSatisfy { $0 <= limit }, "the broker delivered an oversized payload: \(arrived)")
        // The marker (free text) is answered by chat with a canned reply; it is not hostile.
        await phone.shutdown()
        await watcher.shutdown()
    }

    /// `message_size_limit` from the project's own mosquitto.conf.
    static func brokerMessageSizeLimit() throws -> Int {
        let conf = try String(
            contentsOf: SecuredBroker.repositoryRoot.appendingPathComponent("mosquitto/mosquitto.conf"), encoding: .utf8
        )
        guard let line = conf.split(separator: "\n").first(where: { $0.hasPrefix("message_size_limit ") }),
            let limit = Int(line.split(separator: " ")[1])
        else { throw HarnessError.notFound("message_size_limit in mosquitto.conf") }
        return limit
    }
}
