import Foundation
import SafeWalkCore
import SafeWalkMQTT
import Synchronization
import TestSupport
import Testing

@testable import SafeWalkCLI

/// The sender's shell around ``ActionRetry`` on an in-memory bus, with short real waits (the
/// decisions themselves are tested clock-free in ActionRetryTests).
@Suite struct ActionSenderTests {
    let alice = try! WalkerID("alice")

    final class Events: Sendable {
        private let list = Mutex<[SimulationEvent]>([])
        var all: [SimulationEvent] { list.withLock { $0 } }
        func record(_ event: SimulationEvent) { list.withLock { $0.append(event) } }
    }

    func sender(
        _ bus: InMemoryMessageBus, _ events: Events, _ policy: ActionRepeat,
        clock: any SimulationClock = SystemSimulationClock()
    ) async throws -> (
        ActionSender, ActionAnswers
    ) {
        let answers = ActionAnswers()
        try await answers.listen(on: bus, walker: alice, prefix: Topic.defaultPrefix, events: events.record)
        return (
            ActionSender(
                bus: bus, walker: alice, prefix: Topic.defaultPrefix, clock: clock,
                policy: policy, answers: answers, events: events.record), answers
        )
    }

    @Test func withoutAnAnswerItRepeatsTheSameIDThenGivesUp() async throws {
        let bus = InMemoryMessageBus()
        let events = Events()
        // Nobody answers: a clock that moves on by each wait makes the whole schedule run at once,
        // the same on a loaded machine as on an idle one.
        let (sender, answers) = try await sender(
            bus, events, ActionRepeat(every: 0.05, giveUpAfter: 1.5),
            clock: EpochClock(now: 1_000, autoAdvance: true))
        defer { answers.stop() }
        let action = Action(id: "n1", kind: .needHelp, note: "Someone is following me")
        #expect(try await sender.send(action) == nil)
        let copies = try bus.published(matching: Topic.action(alice).name()).map {
            try SafeWalkJSON.decode(Action.self, from: $0.payload)
        }
        #expect(copies.count >= 2 && copies.allSatisfy { $0 == action })
        #expect(events.all.first == .actionSent(action))
        #expect(events.all.last == .actionUnanswered(action, attempts: copies.count))
        #expect(events.all.contains(.actionRepeated(action, attempt: 2)))
    }

    @Test func aRefusalOfTheActionSettlesItAndIsReportedAsItsAnswer() async throws {
        let bus = InMemoryMessageBus()
        let events = Events()
        // Generous: on a loaded CI machine the refuser once did not answer within 10 s.
        let (sender, answers) = try await sender(bus, events, ActionRepeat(every: 0.05, giveUpAfter: 60))
        defer { answers.stop() }
        let refusal = InputRefusal(kind: .action, reason: "malformed", id: "s1")
        // Subscribed before the first send, so the refuser never depends on a repeat.
        let actions = try await bus.subscribe(Topic.action(alice).name(), qos: .atLeastOnce)
        let refuser = Task {
            for await _ in actions {
                try await bus.publish(
                    MQTTMessage(topic: Topic.inputRejected(alice).name(), payload: try SafeWalkJSON.encode(refusal)))
                return
            }
        }
        let action = Action(id: "s1", kind: .start)
        #expect(try await sender.send(action) == .refused(refusal))
        try await refuser.value
        #expect(events.all.contains(.actionAnswered(action, .refused(refusal))))
        #expect(!events.all.contains(.refused(refusal)))  // reported once, as the answer
    }
}
