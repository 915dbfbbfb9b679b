import Synchronization

/// Hands messages from libmosquitto's network thread to one async consumer.
///
/// The producer never blocks and nothing is ever dropped: the buffer grows as long as the
/// consumer lags. Blocking the network thread instead would stall PUBACKs too, deadlocking any
/// consumer that publishes at QoS 1 and awaits the acknowledgement, and would only move the loss
/// to the broker (which drops QoS 0, and QoS 1 beyond `max_queued_messages`). For a safety system
/// a message late is recoverable, a message lost is not; memory is the cheaper failure and is
/// made visible: `highWaterMark` records the deepest backlog so operators see a consumer falling
/// behind. The consumer takes everything pending in one wake-up, which is what keeps the hop
/// cheap (one wake-up per message halves throughput; measured in docs/ARCHITECTURE.md, "The MQTT
/// client").
final class MessageBuffer: Sendable {
    private struct State {
        var pending: [MQTTMessage] = []
        /// Messages before this index were handed out one by one (`next`); compacted lazily.
        var head = 0
        var waiter: CheckedContinuation<[MQTTMessage]?, Never>?
        var finished = false
        var highWaterMark = 0
    }

    private let state = Mutex(State())
    /// Set by ``admit(only:)``: topics refused here never reach `pending`. Boxed in a class: a bare
    /// function type as a Mutex's value is re-abstracted on every `withLock` write-back, wrapping
    /// the closure in two more thunks per message (perf showed contacts-store spending 74 % of its
    /// time unwinding them after a minute).
    private let admission = Mutex<Admission?>(nil)

    private final class Admission: Sendable {
        let admits: @Sendable (String) -> Bool
        init(_ admits: @escaping @Sendable (String) -> Bool) { self.admits = admits }
    }
    private let onFinish: @Sendable () -> Void
    private let onHighWaterMark: (@Sendable (Int) -> Void)?

    /// `onHighWaterMark` is called on the appending thread, outside the lock, each time the
    /// deepest backlog grows (with the new depth): for the Prometheus gauge. Keep it cheap.
    init(onHighWaterMark: (@Sendable (Int) -> Void)? = nil, onFinish: @escaping @Sendable () -> Void = {}) {
        self.onHighWaterMark = onHighWaterMark
        self.onFinish = onFinish
    }

    /// From now on, drops on the network thread every message whose topic `admits` refuses.
    func admit(only admits: @escaping @Sendable (String) -> Bool) {
        let admission = Admission(admits)
        self.admission.withLock { $0 = admission }
    }

    /// Called on the network thread. Returns false once the consumer has gone.
    @discardableResult
    func append(_ message: MQTTMessage) -> Bool {
        if let admission = admission.withLock({ $0 }), !admission.admits(message.topic) { return !isFinished }
        let (accepted, waiter, risen) = state.withLock {
            state -> (Bool, CheckedContinuation<[MQTTMessage]?, Never>?, Int?) in
            guard !state.finished else { return (false, nil, nil) }
            if let waiter = state.waiter {
                state.waiter = nil
                return (true, waiter, nil)
            }
            state.pending.append(message)
            let depth = state.pending.count - state.head
            guard depth > state.highWaterMark else { return (true, nil, nil) }
            state.highWaterMark = depth
            return (true, nil, depth)
        }
        waiter?.resume(returning: [message])
        if let risen { onHighWaterMark?(risen) }
        return accepted
    }

    var isFinished: Bool { state.withLock { $0.finished } }
    var highWaterMark: Int { state.withLock { $0.highWaterMark } }

    /// Everything pending, waiting for at least one message. Nil once finished or cancelled.
    func nextBatch() async -> [MQTTMessage]? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<[MQTTMessage]?, Never>) in
                let immediate: [MQTTMessage]?? = state.withLock { state in
                    if state.head < state.pending.count {
                        defer { state.pending.removeAll(keepingCapacity: true); state.head = 0 }
                        return .some(Array(state.pending[state.head...]))
                    }
                    if state.finished || Task.isCancelled { return .some(nil) }
                    precondition(state.waiter == nil, "an MQTT subscription has exactly one consumer")
                    state.waiter = continuation
                    return .none
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            finish()
        }
    }

    /// The oldest pending message, waiting for one if none is pending. Takes exactly one, so a
    /// consumer that stops iterating leaves the rest for the next iteration.
    func next() async -> MQTTMessage? {
        let ready: MQTTMessage?? = state.withLock { state in
            guard state.head < state.pending.count else { return .none }
            let message = state.pending[state.head]
            state.head += 1
            if state.head == state.pending.count {
                state.pending.removeAll(keepingCapacity: true)
                state.head = 0
            } else if state.head >= 4096 && state.head * 2 >= state.pending.count {
                state.pending.removeFirst(state.head)
                state.head = 0
            }
            return .some(message)
        }
        if let ready { return ready }
        // Nothing pending: wait for the next delivery (a one-element batch, or a batch that
        // raced in, of which we keep the first and put the rest back at the front).
        guard var batch = await nextBatch(), !batch.isEmpty else { return nil }
        let first = batch.removeFirst()
        if !batch.isEmpty {
            state.withLock { state in
                state.pending.replaceSubrange(0..<state.head, with: batch)
                state.head = 0
            }
        }
        return first
    }

    /// Ends the sequence: the waiting consumer (if any) gets nil, later appends are ignored.
    func finish() {
        let (waiter, first): (CheckedContinuation<[MQTTMessage]?, Never>?, Bool) = state.withLock { state in
            let first = !state.finished
            state.finished = true
            defer { state.waiter = nil }
            return (state.waiter, first)
        }
        waiter?.resume(returning: nil)
        if first { onFinish() }
    }
}
