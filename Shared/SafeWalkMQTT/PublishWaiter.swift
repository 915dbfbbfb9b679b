import Synchronization

/// Who waits for a QoS 1/2 publish to be acknowledged: one caller of
/// ``MQTTClient/publish(_:)``, or one message of a batch (``MQTTClient/publish(all:)``), whose
/// caller is woken once, when the batch's last message is settled.
enum PublishWaiter: Sendable {
    case one(CheckedContinuation<Void, any Error>)
    case batch(PublishBatch, index: Int)

    func succeed() {
        switch self {
        case .one(let caller): caller.resume()
        case .batch(let batch, let index): batch.settle(index, nil)
        }
    }

    func fail(_ error: any Error) {
        switch self {
        case .one(let caller): caller.resume(throwing: error)
        case .batch(let batch, let index): batch.settle(index, error)
        }
    }
}

/// The outcome of each message of one batch of publishes, and the one caller waiting for them
/// all. Each message is settled once (the broker's acknowledgement, a failure, or the caller's
/// cancellation, whichever takes its waiter out of the client's state first); a second settle is
/// ignored.
final class PublishBatch: Sendable {
    private struct State {
        var outcomes: [(any Error)?]
        var settled: [Bool]
        var unsettled: Int
        var caller: CheckedContinuation<[(any Error)?], Never>?
    }

    private let state: Mutex<State>

    init(count: Int) {
        state = Mutex(
            State(
                outcomes: Array(repeating: nil, count: count), settled: Array(repeating: false, count: count),
                unsettled: count, caller: nil))
    }

    func settle(_ index: Int, _ error: (any Error)?) {
        let done: (CheckedContinuation<[(any Error)?], Never>, [(any Error)?])? = state.withLock { state in
            guard !state.settled[index] else { return nil }
            state.settled[index] = true
            state.outcomes[index] = error
            state.unsettled -= 1
            guard state.unsettled == 0, let caller = state.caller else { return nil }
            state.caller = nil
            return (caller, state.outcomes)
        }
        if let (caller, outcomes) = done { caller.resume(returning: outcomes) }
    }

    /// Suspends until every message is settled; each one's error, nil where it was acknowledged.
    func outcomes() async -> [(any Error)?] {
        await withCheckedContinuation { caller in
            let ready: [(any Error)?]? = state.withLock { state in
                guard state.unsettled > 0 else { return state.outcomes }
                state.caller = caller
                return nil
            }
            if let ready { caller.resume(returning: ready) }
        }
    }
}
