import Foundation
import SafeWalkCore
import SafeWalkMQTT
import Synchronization
import TestSupport

/// Plays the watchdog's side of acknowledged actions on a real broker: records every copy of
/// every action on `{w}/action` and answers an id on `{w}/action/result` only when its
/// `answerOnCopy`-th copy arrives (1: at once), and every copy after that, as the real one does.
final class FakeWatchdog: Sendable {
    /// Every action received, repeats included, in order.
    var received: [Action] { state.withLock { $0 } }
    /// Each action at the moment it was answered the first time.
    let answered: AsyncStream<Action>
    private let state = Mutex<[Action]>([])
    private let client: MQTTClient
    private let actions: MQTTSubscription

    private init(client: MQTTClient, actions: MQTTSubscription, answered: AsyncStream<Action>) {
        self.client = client
        self.actions = actions
        self.answered = answered
    }

    static func start(on broker: MosquittoBroker, walker: WalkerID, answerOnCopy: Int) async throws -> FakeWatchdog {
        let client = try await broker.client("fake-watchdog")
        let actions = try await client.subscribe(Topic.action(walker).name(), qos: .atLeastOnce)
        let (answered, continuation) = AsyncStream<Action>.makeStream()
        let watchdog = FakeWatchdog(client: client, actions: actions, answered: answered)
        Task {
            for await message in actions {
                guard let action = try? SafeWalkJSON.decode(Action.self, from: message.payload) else { continue }
                let copy = watchdog.state.withLock { received in
                    received.append(action)
                    return received.filter { $0.id == action.id }.count
                }
                guard copy >= answerOnCopy,
                    let payload = try? SafeWalkJSON.encode(ActionResult(id: action.id, ok: true))
                else { continue }
                try? await client.publish(MQTTMessage(topic: Topic.actionResult(walker).name(), payload: payload))
                if copy == answerOnCopy { continuation.yield(action) }
            }
            continuation.finish()
        }
        return watchdog
    }

    /// How many copies of each action kind arrived, by id, in order of first arrival.
    func copies(of kind: String) -> [Int] {
        let received = self.received.filter { $0.kind.name == kind }
        var ids: [String] = []
        for action in received where !ids.contains(action.id) { ids.append(action.id) }
        return ids.map { id in received.filter { $0.id == id }.count }
    }

    func shutdown() async {
        actions.cancel()
        await client.shutdown()
    }
}
