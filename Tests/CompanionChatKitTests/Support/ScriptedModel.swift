import CompanionChatKit
import Synchronization
import TestSupport

/// A ``ChatModel`` the test controls: answers by default, fails when told, and holds any
/// conversation whose last line is in `held` until the test releases it.
final class ScriptedModel: ChatModel {
    private struct State {
        var calls: [[ChatTurn]] = []
        var failures: [ChatModelError] = []
        var held: [String: CheckedContinuation<Void, Never>] = [:]
        var holdTexts: Set<String> = []
        var callWaiters = ParkedWaiters<Int>()
    }

    private let state = Mutex(State())
    let answer: @Sendable (String) -> String

    init(answer: @escaping @Sendable (String) -> String = { "model: \($0)" }) {
        self.answer = answer
    }

    /// The next calls fail with these errors, in order.
    func fail(_ errors: ChatModelError...) { state.withLock { $0.failures += errors } }

    /// Calls whose last walker line is `text` wait until ``release(_:)``.
    func hold(_ text: String) { state.withLock { _ = $0.holdTexts.insert(text) } }

    func release(_ text: String) {
        let continuation = state.withLock { state in
            state.holdTexts.remove(text)
            return state.held.removeValue(forKey: text)
        }
        continuation?.resume()
    }

    var calls: [[ChatTurn]] { state.withLock { $0.calls } }

    func waitForCalls(_ count: Int) async {
        await state.wait(until: count, parkedIn: \.callWaiters) { $0.calls.count >= count }
    }

    func reply(to conversation: [ChatTurn]) async throws(ChatModelError) -> String {
        let last = conversation.last?.text ?? ""
        let failure: ChatModelError? = state.withLock { state in
            state.calls.append(conversation)
            let count = state.calls.count
            state.callWaiters.release { $0 <= count }.forEach { $0.resume() }
            return state.failures.isEmpty ? nil : state.failures.removeFirst()
        }
        if let failure { throw failure }
        if state.withLock({ $0.holdTexts.contains(last) }) {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let releasedAlready = state.withLock { state in
                    guard state.holdTexts.contains(last) else { return true }
                    state.held[last] = continuation
                    return false
                }
                if releasedAlready { continuation.resume() }
            }
        }
        return answer(last)
    }
}
