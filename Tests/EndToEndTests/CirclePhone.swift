import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// A user's phone as the circle app uses it, logged in as the user: it subscribes to the user's
/// answers, inbox, circle and shared views before it sends anything, then sends a
/// ``CircleCommand`` and awaits the ``CircleResult`` with its id.
final class CirclePhone: Sendable {
    let user: WalkerID
    let client: MQTTClient
    let results: MQTTSubscription
    let inbox: MQTTSubscription
    let circle: MQTTSubscription
    /// `{me}/#`: everything the user can read, of which ``views(of:count:within:where:)`` takes
    /// the live views of users who made this one an SOS contact (`{me}/shared/{other}`).
    let mine: MQTTSubscription

    /// On `client` (a ``Walker``'s phone, say), which must be logged in as `user`.
    init(_ user: String, client: MQTTClient) async throws {
        self.user = try WalkerID(user)
        self.client = client
        results = try await client.subscribe(Topic.circleResult(self.user).name(), qos: .atLeastOnce)
        inbox = try await client.subscribe(Topic.inbox(self.user).name(), qos: .atLeastOnce)
        circle = try await client.subscribe(Topic.circle(self.user).name(), qos: .atLeastOnce)
        mine = try await client.subscribe(TopicFilter.walker(self.user).rawValue, qos: .atLeastOnce)
    }

    /// Its own connection, logged in as `user` with the user's password.
    convenience init(_ user: String, on stack: ServiceStack) async throws {
        try await self.init(user, client: try await stack.client(as: user, role: "circle"))
    }

    /// Sends `op` (about `other`, if any) and returns its answer.
    @discardableResult
    func send(_ op: CircleCommand.Operation, _ other: String? = nil, on: Bool? = nil) async throws -> CircleResult {
        let command = CircleCommand(id: "\(op.rawValue)-\(UUID().uuidString.prefix(8))", op: op, user: other, on: on)
        try await client.publish(Topic.circleCommand(user).name(), payload: SafeWalkJSON.encode(command))
        let answer = try await results.decoded(CircleResult.self, where: { $0.id == command.id })
        return try #require(answer.first)
    }

    /// Sends `op` and requires it to succeed.
    @discardableResult
    func perform(
        _ op: CircleCommand.Operation, _ other: String? = nil, on: Bool? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> CircleResult {
        let result = try await send(op, other, on: on)
        #expect(
            result.ok, "\(user) \(op.rawValue) \(other ?? ""): \(String(describing: result.error))",
            sourceLocation: sourceLocation)
        return result
    }

    /// Sends `op` and returns the code it was refused with (nil if it was not).
    func refusal(_ op: CircleCommand.Operation, _ other: String? = nil) async throws -> CircleError.Code? {
        let result = try await send(op, other)
        return result.ok ? nil : result.error?.code
    }

    /// The next inbox event of `type` (from `from`, if given); earlier events of other kinds are
    /// passed over.
    func next(_ type: InboxEvent.Kind, from: String? = nil, within seconds: Double = 20) async throws -> InboxEvent {
        let events = try await inbox.decoded(InboxEvent.self, within: seconds) { event in
            event.type == type && (from == nil || event.from.rawValue == from)
        }
        return try #require(events.first)
    }

    /// The next `{me}/circle` that satisfies `condition` (the retained one counts).
    func circle(where condition: @escaping @Sendable (CircleView) -> Bool) async throws -> CircleView {
        try #require(try await circle.decoded(CircleView.self, where: condition).first)
    }

    /// The next `count` views of `other` on `{me}/shared/{other}` that satisfy `condition`.
    func views(
        of other: String, count: Int = 1, within seconds: Double = 20,
        where condition: @escaping @Sendable (SharedView) -> Bool = { _ in true }
    ) async throws -> [SharedView] {
        let topic = Topic.shared(for: user, of: try WalkerID(other))
        return try await withTimeout(seconds, "\(count) views on \(topic)") { [mine] in
            var found: [SharedView] = []
            for await message in mine where message.topic == topic {
                guard let view = try? SafeWalkJSON.decode(SharedView.self, from: message.payload, maxBytes: 1 << 16),
                    condition(view)
                else { continue }
                found.append(view)
                if found.count == count { break }
            }
            return found
        }
    }

    /// Waits for `{me}/shared/{other}` to be cleared: the empty retained message.
    func viewCleared(of other: String, within seconds: Double = 20) async throws {
        let topic = Topic.shared(for: user, of: try WalkerID(other))
        try await withTimeout(seconds, "\(topic) cleared") { [mine] in
            for await message in mine where message.topic == topic && message.payload.isEmpty { return }
        }
    }

    /// `op: inbox` on a fresh subscription: the events the circle owner sends again (oldest
    /// first, then the answer whose `count` says how many), and the answer.
    func replayInbox() async throws -> (events: [InboxEvent], result: CircleResult) {
        let again = try await client.subscribe(Topic.inbox(user).name(), qos: .atLeastOnce)
        defer { again.cancel() }
        let result = try await perform(.inbox)
        let count = try #require(result.count)
        let events = count == 0 ? [] : try await again.decoded(InboxEvent.self, count: count, within: 10)
        return (events, result)
    }

    func leave() async { await client.shutdown() }
}

/// The stack for the circle's stories: every story walker, `eve` (connected to nobody) and `web`,
/// whose login publishes each user's retained ``Member`` before the first command, as web does
/// for every account.
struct CircleWorld: Sendable {
    let stack: ServiceStack

    static let users = ServiceStack.storyWalkers + ["eve"]

    /// - Parameters:
    ///   - members: the users with an account (each gets a retained `_members/{w}`).
    ///   - overrides: settings for this story only (a short check-in request timeout, …).
    static func start(members: [String], _ overrides: [String: String] = [:]) async throws -> CircleWorld {
        let stack = try await ServiceStack.start(
            walkers: users + ["web"], environment: ServiceStack.storyThresholds.merging(overrides) { $1 })
        let world = CircleWorld(stack: stack)
        do {
            try await world.publishMembers(members)
        } catch {
            await stack.stop()
            throw error
        }
        return world
    }

    /// As `web`: a retained `Member` for each user, then waits until the circle owner knows the
    /// last of them (members arrive in order on one subscription, so then it knows them all).
    func publishMembers(_ members: [String]) async throws {
        let web = try await stack.client(as: "web")
        for member in members {
            let user = try WalkerID(member)
            try await web.publish(
                Topic.member(user).name(), payload: SafeWalkJSON.encode(Member(user: user, since: Walker.now)),
                retain: true)
        }
        await web.shutdown()
        guard let last = members.last, let asker = members.first(where: { $0 != last }) else { return }
        // A harmless question: `unfollow` of someone one does not follow is `notFollowing` once
        // the circle owner knows them, `unknownUser` until then.
        let probe = try await CirclePhone(asker, on: stack)
        do {
            try await withTimeout(20, "the circle owner knows \(last)") {
                while try await probe.refusal(.unfollow, last) == .unknownUser {
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
        } catch {
            await probe.leave()
            throw error
        }
        await probe.leave()
    }

    func phone(_ user: String) async throws -> CirclePhone { try await CirclePhone(user, on: stack) }

    func stop() async { await stack.stop() }
}

extension MQTTClient {
    /// Subscribes to `filter`; nil when the broker refuses the subscription outright.
    func tryToRead(_ filter: String) async throws -> MQTTSubscription? {
        do {
            return try await subscribe(filter, qos: .atLeastOnce)
        } catch MQTTError.subscriptionRefused {
            return nil
        }
    }
}

extension CirclePhone {
    /// This user follows `followee` (asks, and they accept), and marks them an SOS contact if `sos`.
    func follow(_ followee: CirclePhone, sos: Bool = false) async throws {
        try await perform(.follow, followee.user.rawValue)
        _ = try await followee.next(.followRequest, from: user.rawValue)
        try await followee.perform(.accept, user.rawValue)
        _ = try await next(.followAccepted, from: followee.user.rawValue)
        if sos {
            try await perform(.sos, followee.user.rawValue)
            _ = try await circle { [other = followee.user] in $0.following.contains { $0.user == other && $0.sos } }
        }
    }

    /// What a new subscriber to `{me}/shared/{walker}` gets: the retained view, if one is kept.
    /// This user's own `op: inbox`, answered after it, marks the end of the wait.
    func retainedView(of walker: String) async throws -> MQTTMessage? {
        let fresh = try await client.subscribe(Topic.shared(for: user, of: try WalkerID(walker)), qos: .atLeastOnce)
        _ = try await replayInbox()
        return await fresh.drained().first { !$0.payload.isEmpty }
    }
}
