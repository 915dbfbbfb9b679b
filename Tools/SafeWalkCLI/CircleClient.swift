import Foundation
import SafeWalkCore
import SafeWalkMQTT

/// The signed-in user's side of the circle (docs/CONTRACT.md, "The circle"): one command and its
/// answer, the inbox sent again, the retained circle. Every topic is under the user's own id,
/// the only place the broker lets a user's login read and write circle traffic.
public struct CircleClient: Sendable {
    public let bus: any MessageBus
    public let user: WalkerID
    public let prefix: String
    /// How long to wait for the circle owner (contacts-store) before giving up.
    public let timeout: Double

    public init(bus: any MessageBus, user: WalkerID, prefix: String = Topic.defaultPrefix, timeout: Double = 10) {
        self.bus = bus
        self.user = user
        self.prefix = prefix
        self.timeout = timeout
    }

    /// Publishes `command` on `{w}/circle/cmd` (QoS 1) and returns the answer with its id from
    /// `{w}/circle/result`; answers to other commands (another device of the same user) are
    /// skipped.
    public func send(_ command: CircleCommand) async throws -> CircleResult {
        // Subscribe first so the answer cannot slip past between publish and subscribe.
        let results = try await bus.subscribe(Topic.circleResult(user).name(prefix: prefix), qos: .atLeastOnce)
        return try await publish(command, awaiting: results)
    }

    /// `op: inbox`: the answer, and the events sent again on `{w}/inbox` (each id once) until the
    /// answer's count is reached or `settle` seconds pass after the answer.
    public func inbox(id: String, settle: Double) async throws -> (result: CircleResult, events: [InboxEvent]) {
        let inbox = try await bus.subscribe(Topic.inbox(user).name(prefix: prefix), qos: .atLeastOnce)
        let results = try await bus.subscribe(Topic.circleResult(user).name(prefix: prefix), qos: .atLeastOnce)
        let result: CircleResult
        do {
            result = try await publish(CircleCommand(id: id, op: .inbox), awaiting: results)
        } catch {
            inbox.cancel()
            throw error
        }
        var replay = InboxReplay(expected: result.ok ? result.count ?? 0 : 0)
        if replay.isComplete {
            inbox.cancel()
            return (result, [])
        }
        // Events that came before the answer wait in the subscription's buffer.
        _ = await inbox.firstAccepted(within: settle) { message -> Bool? in
            guard let event = try? SafeWalkJSON.decode(InboxEvent.self, from: message.payload) else { return nil }
            replay.add(event)
            return replay.isComplete ? true : nil
        }
        return (result, replay.events)
    }

    /// The retained `{w}/circle`, or nil if none arrives within the timeout.
    public func view() async throws -> CircleView? {
        let views = try await bus.subscribe(Topic.circle(user).name(prefix: prefix), qos: .atLeastOnce)
        return await views.firstAccepted(within: timeout) { message in
            try? SafeWalkJSON.decode(CircleView.self, from: message.payload)
        }
    }

    private func publish(_ command: CircleCommand, awaiting results: MQTTSubscription) async throws -> CircleResult {
        do {
            try await bus.publish(
                MQTTMessage(
                    topic: Topic.circleCommand(user).name(prefix: prefix), payload: try SafeWalkJSON.encode(command)))
        } catch {
            results.cancel()
            throw error
        }
        let result: CircleResult? = await results.firstAccepted(within: timeout) { message in
            guard let result = try? SafeWalkJSON.decode(CircleResult.self, from: message.payload),
                result.id == command.id
            else { return nil }
            return result
        }
        guard let result else { throw CLIError.noAnswer(what: "the circle owner (contacts-store)", seconds: timeout) }
        return result
    }
}

/// The events `op: inbox` sends again, collected: each id once, in the order they came (oldest
/// first, as the owner sends them), complete at the answer's count.
public struct InboxReplay: Sendable, Equatable {
    public let expected: Int
    public private(set) var events: [InboxEvent] = []

    public init(expected: Int) { self.expected = expected }

    public var isComplete: Bool { events.count >= expected }

    /// Keeps `event` unless one with its id is kept already (QoS 1 may deliver it twice).
    public mutating func add(_ event: InboxEvent) {
        guard !events.contains(where: { $0.id == event.id }) else { return }
        events.append(event)
    }
}
