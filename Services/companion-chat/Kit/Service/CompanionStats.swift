import Metrics
import Synchronization

/// What the companion has sent and how the model has failed: swift-metrics counters for
/// operators, plus in-process counts that tests read.
public final class CompanionStats: Sendable {
    private struct Counts {
        var messages: [ChatMessageKind: Int] = [:]
        var modelFailures: [String: Int] = [:]
    }

    private let counts = Mutex(Counts())

    public init() {}

    func sent(_ kind: ChatMessageKind) {
        counts.withLock { $0.messages[kind, default: 0] += 1 }
        Counter(label: "safewalk_chat_messages_total", dimensions: [("kind", kind.rawValue)]).increment()
    }

    func modelFailed(_ error: ChatModelError) {
        counts.withLock { $0.modelFailures[error.code, default: 0] += 1 }
        Counter(label: "safewalk_chat_model_failures_total", dimensions: [("reason", error.code)]).increment()
    }

    public func messages(_ kind: ChatMessageKind) -> Int { counts.withLock { $0.messages[kind] ?? 0 } }
    /// Model failures by ``ChatModelError/code``.
    public var modelFailures: [String: Int] { counts.withLock { $0.modelFailures } }
}
