import SafeWalkCore
import Synchronization

/// One serial queue per walker, so each conversation is answered in order while a slow model
/// call for one walker never holds up another.
///
/// A lane has a bounded queue and at most one worker. `enqueue` reports when a worker must be
/// started; the worker takes events with `next` until the queue is empty, and that same
/// locked step marks the lane idle, so an event can never be left behind without a worker.
/// Idle lanes keep their conversation (history) until the walker count passes `maxWalkers`,
/// then the least recently used idle lane is forgotten.
public final class WalkerLanes: Sendable {
    public enum Admission: Hashable, Sendable {
        /// Queued; the caller must start a worker for this walker.
        case startWorker
        /// Queued behind the running worker.
        case queued
        /// The walker's queue is full; the event was not taken.
        case full
    }

    private struct Lane {
        var queue: [ChatEvent] = []
        var working = false
        /// nil while a worker holds it.
        var conversation: WalkerConversation?
        var lastUsed: UInt64 = 0
        /// Erased while a worker held the conversation: the one it hands back is dropped.
        var heldIsErased = false
        /// Erased and nothing new since: the lane goes when its worker ends.
        var forgetWhenIdle = false
    }

    private struct State {
        var lanes: [WalkerID: Lane] = [:]
        var tick: UInt64 = 0
        /// Lanes by last use, for eviction without a scan.
        var usage = UsageHeap()
    }

    private let state = Mutex(State())
    private let queueLimit: Int
    private let maxWalkers: Int
    private let maxTurns: Int

    public init(queueLimit: Int, maxWalkers: Int, maxTurns: Int) {
        self.queueLimit = max(1, queueLimit)
        self.maxWalkers = max(1, maxWalkers)
        self.maxTurns = maxTurns
    }

    public func enqueue(_ event: ChatEvent, for walker: WalkerID) -> Admission {
        state.withLock { state in
            state.tick += 1
            var lane = state.lanes[walker] ?? Lane(conversation: WalkerConversation(maxTurns: maxTurns))
            guard lane.queue.count < queueLimit else { return .full }
            lane.queue.append(event)
            lane.forgetWhenIdle = false
            lane.lastUsed = state.tick
            let start = !lane.working
            lane.working = true
            state.lanes[walker] = lane
            state.usage.push(state.tick, walker)
            if state.lanes.count > maxWalkers { Self.evictIdle(&state, sparing: walker) }
            if state.usage.count > 4 * state.lanes.count + 64 {
                state.usage.compact(
                    keeping: state.lanes.map { UsageHeap.Entry(tick: $0.value.lastUsed, walker: $0.key) })
            }
            return start ? .startWorker : .queued
        }
    }

    /// The next event with the walker's conversation (the worker owns it until ``finish(_:for:)``),
    /// or nil when the queue is empty, which also ends the lane's worker.
    public func next(for walker: WalkerID) -> (ChatEvent, WalkerConversation)? {
        state.withLock { state in
            guard var lane = state.lanes[walker] else { return nil }
            guard !lane.queue.isEmpty, let conversation = lane.conversation else {
                lane.working = false
                state.lanes[walker] = lane.forgetWhenIdle ? nil : lane
                return nil
            }
            let event = lane.queue.removeFirst()
            lane.conversation = nil
            state.lanes[walker] = lane
            return (event, conversation)
        }
    }

    /// Hands the conversation back after an event was handled.
    public func finish(_ conversation: WalkerConversation, for walker: WalkerID) {
        state.withLock { state in
            guard var lane = state.lanes[walker] else { return }
            lane.conversation = lane.heldIsErased ? WalkerConversation(maxTurns: maxTurns) : conversation
            lane.heldIsErased = false
            state.lanes[walker] = lane
        }
    }

    /// Forgets everything about `walker`: history, queued events, its place in the usage order.
    /// An idle lane goes at once; a busy one is emptied, the conversation its worker holds is
    /// dropped when handed back, and the lane goes when the worker ends (unless the walker
    /// writes again meanwhile). Idempotent.
    public func erase(_ walker: WalkerID) {
        state.withLock { state in
            guard var lane = state.lanes[walker] else { return }
            if lane.working {
                lane.queue.removeAll()
                if lane.conversation == nil {
                    lane.heldIsErased = true  // the worker has it
                } else {
                    lane.conversation = WalkerConversation(maxTurns: maxTurns)
                }
                lane.forgetWhenIdle = true
                state.lanes[walker] = lane
            } else {
                state.lanes.removeValue(forKey: walker)
            }
            state.usage.compact(
                keeping: state.lanes.map { UsageHeap.Entry(tick: $0.value.lastUsed, walker: $0.key) })
        }
    }

    /// The conversation of an idle walker (for tests).
    public func conversation(for walker: WalkerID) -> WalkerConversation? {
        state.withLock { $0.lanes[walker]?.conversation }
    }

    /// Walkers with a lane (idle or not).
    public var walkerCount: Int { state.withLock { $0.lanes.count } }

    /// Forgets the least recently used idle lane. It used to filter and scan every lane on each
    /// enqueue past the limit: with 15,000 walkers and the default limit of 10,000 that took
    /// companion-chat from 10 % to 70 % of a core, check-ins went out late and thousands of
    /// walkers who were answering got `noReply` escalations (the e2e load benchmark's sweep).
    private static func evictIdle(_ state: inout State, sparing walker: WalkerID) {
        var busy: [UsageHeap.Entry] = []
        defer { for entry in busy { state.usage.push(entry.tick, entry.walker) } }
        while let entry = state.usage.popMin() {
            guard let lane = state.lanes[entry.walker], lane.lastUsed == entry.tick else { continue }  // stale
            guard entry.walker != walker, !lane.working else {
                busy.append(entry)
                continue
            }
            state.lanes.removeValue(forKey: entry.walker)
            return
        }
    }
}
