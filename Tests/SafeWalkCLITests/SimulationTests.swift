import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

@testable import SafeWalkCLI

/// The shared epoch-seconds test clock, as the simulation's clock.
typealias ManualClock = EpochClock

extension EpochClock: SimulationClock {}

/// The simulation's events as an async sequence the test can wait on.
final class EventLog: Sendable {
    let stream: AsyncStream<SimulationEvent>
    let continuation: AsyncStream<SimulationEvent>.Continuation
    init() { (stream, continuation) = AsyncStream.makeStream() }

    /// Waits for the next event matching `predicate`, skipping others.
    func next(_ what: String, _ predicate: @escaping @Sendable (SimulationEvent) -> Bool) async throws
        -> SimulationEvent
    {
        let stream = self.stream
        return try await withTimeout(30, what) {
            for await event in stream where predicate(event) { return event }
            throw HarnessError.timedOut(what)
        }
    }
}

extension SimulationEvent {
    var isFix: Bool { if case .fix = self { true } else { false } }
    var fix: LocationFix? { if case .fix(let fix) = self { fix } else { nil } }
}

@Suite struct SimulationTests {
    let alice = try! WalkerID("alice")
    let start: EpochSeconds = 1_700_000_000

    func checking(since: EpochSeconds) throws -> MQTTMessage {
        MQTTMessage(
            topic: Topic.status(alice).name(),
            payload: try SafeWalkJSON.encode(
                WatchStatus(state: .checking, watching: true, since: since)), retain: true)
    }

    @Test func answersCheckInsUntilItGoesSilentThenSaysGoodbye() async throws {
        let bus = InMemoryMessageBus()
        let clock = ManualClock(now: start)
        let log = EventLog()
        let settings = SimulationSettings(walker: alice, interval: 5, goSilentAfter: 12, duration: 30)
        let simulation = WalkerSimulation(
            settings: settings, path: .random(RandomWalk(seed: 3)), bus: bus, clock: clock,
            events: { log.continuation.yield($0) })
        let run = Task { try await simulation.run() }

        _ = try await log.next("first fix") { $0.isFix }
        try await bus.publish(checking(since: start + 1))
        let answered = try await log.next("an answer") { if case .answered = $0 { true } else { false } }
        guard case .answered(let reply) = answered else { return }
        #expect(reply.text == QuickReply.okay.text && reply.quickReply == true)
        let replies = bus.published(matching: Topic.reply(alice).name())
        #expect(try replies.map { try SafeWalkJSON.decode(Reply.self, from: $0.payload) } == [reply])

        // The companion's answer to our quick reply is not a prompt; its check-in message is,
        // but arrives with the status we already answered.
        try await bus.publish(
            MQTTMessage(
                topic: Topic.chat(alice).name(),
                payload: try SafeWalkJSON.encode(
                    ChatMessage(id: "c1", text: QuickReply.okay.answer, tst: start))))

        for _ in 0..<3 {  // t = 15: past go-silent-after
            clock.advance(by: 5)
            _ = try await log.next("a fix") { $0.isFix }
        }
        try await bus.publish(checking(since: start + 15))
        _ = try await log.next("a prompt left unanswered") { $0 == .leftUnanswered }
        #expect(bus.published(matching: Topic.reply(alice).name()).count == 1)

        for _ in 0..<2 {
            clock.advance(by: 5)
            _ = try await log.next("a fix") { $0.isFix }
        }
        clock.advance(by: 5)  // t = 30: the end
        try await run.value
        let presence = bus.published(matching: Topic.presence(alice).name())
        #expect(presence.map { Presence(payload: $0.payload) } == [.online, .offline])
        #expect(presence.allSatisfy { $0.retain })
        let actions = try bus.published(matching: Topic.action(alice).name()).map {
            try SafeWalkJSON.decode(Action.self, from: $0.payload).kind
        }
        #expect(actions == [.start, .stop])
        let fixes = try bus.published(matching: Topic.fix(alice).name()).map {
            try SafeWalkJSON.decode(LocationFix.self, from: $0.payload)
        }
        #expect(fixes.map(\.tst) == [0, 5, 10, 15, 20, 25].map { start + $0 })
        for (a, b) in zip(fixes, fixes.dropFirst()) { #expect(Geo.distance(a.coordinate, b.coordinate) > 5) }
    }

    @Test func startWalkAndStopMovingWhenSilent() async throws {
        let bus = InMemoryMessageBus()
        let clock = ManualClock(now: start)
        let log = EventLog()
        let settings = SimulationSettings(
            walker: alice, interval: 5, goSilentAfter: 10, stopMovingWhenSilent: true,
            walk: ("Library", 12), duration: 25, stopAtEnd: false)
        let simulation = WalkerSimulation(
            settings: settings, path: .random(RandomWalk(seed: 9)), bus: bus, clock: clock,
            events: { log.continuation.yield($0) })
        let run = Task { try await simulation.run() }
        _ = try await log.next("first fix") { $0.isFix }
        for _ in 0..<5 {
            clock.advance(by: 5)
            _ = try? await log.next("a fix or the end") { $0.isFix || $0 == .finished }
        }
        try await run.value
        let actions = try bus.published(matching: Topic.action(alice).name()).map {
            try SafeWalkJSON.decode(Action.self, from: $0.payload).kind
        }
        #expect(actions == [.startWalk(destination: "Library", minutes: 12)])
        let fixes = try bus.published(matching: Topic.fix(alice).name()).map {
            try SafeWalkJSON.decode(LocationFix.self, from: $0.payload)
        }
        #expect(fixes.count == 5)
        #expect(Geo.distance(fixes[0].coordinate, fixes[1].coordinate) > 5)
        #expect(fixes[1].coordinate == fixes[2].coordinate)  // silent from t = 10: standing still
        #expect(fixes[2].coordinate == fixes[3].coordinate)
        #expect(fixes[3].coordinate == fixes[4].coordinate)
        #expect(bus.published(matching: Topic.presence(alice).name()).count == 1)  // no goodbye: the Last Will speaks
    }
}

@Suite struct PromptAnswererTests {
    @Test func answersEachPromptOnceWhetherSeenAsStatusOrChat() {
        var answerer = PromptAnswerer(silentFrom: nil)
        let checking = WatchStatus(state: .checking, watching: true, since: 100)
        #expect(answerer.decide(.status(checking), at: 100) == .answer)
        #expect(
            answerer.decide(.chat(ChatMessage(id: "c1", text: "Just checking in!", tst: 100)), at: 100.5) == .ignore)
        #expect(answerer.decide(.status(checking), at: 103) == .ignore)  // the same retained status again
        #expect(answerer.decide(.chat(ChatMessage(id: "c2", text: "Just checking in!", tst: 160)), at: 160) == .answer)
        #expect(
            answerer.decide(.status(WatchStatus(state: .checking, watching: true, since: 160)), at: 160.2) == .ignore)
        #expect(answerer.decide(.status(WatchStatus(state: .safe, watching: true, since: 161)), at: 161) == .ignore)
    }

    @Test func neverAnswersTheCompanionsOwnAnswersOrItsOwnWords() {
        var answerer = PromptAnswerer(silentFrom: nil)
        for (index, quick) in QuickReply.catalogue.enumerated() {
            #expect(
                answerer.decide(.chat(ChatMessage(id: "a\(index)", text: quick.answer, tst: 0)), at: Double(index * 10))
                    == .ignore)
        }
        #expect(answerer.decide(.chat(ChatMessage(id: "u", text: "hi", tst: 0, isUser: true)), at: 100) == .ignore)
    }

    @Test func staysSilentFromTheGivenTime() {
        var answerer = PromptAnswerer(silentFrom: 130)
        #expect(answerer.decide(.status(WatchStatus(state: .checking, watching: true, since: 100)), at: 100) == .answer)
        #expect(answerer.decide(.status(WatchStatus(state: .checking, watching: true, since: 130)), at: 130) == .silent)
        #expect(answerer.isSilent(at: 129.9) == false)
    }
}
