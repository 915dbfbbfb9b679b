import SafeWalkCore
import Synchronization

/// The open event streams, by key: an intake wakes every stream of a key whose state changed, and
/// each stream then sends its own snapshot. The live pages watch by walker (a ladder, incident or
/// position changed); the desk's board by ``DeskWatch/board`` and its position streams by walker.
typealias PageWatchers = Watchers<WalkerID>

final class Watchers<Key: Hashable & Sendable>: Sendable {
    enum Tick: Sendable { case changed, heartbeat }

    private let streams = Mutex<[Key: [Int: AsyncStream<Tick>.Continuation]]>([:])
    private let nextID = Atomic<Int>(0)

    /// A stream of ticks for `walker`, first one already in it (so the stream starts with a
    /// snapshot). Only the newest two ticks wait: a slow reader gets the latest state, not a
    /// backlog of old ones.
    func watch(_ walker: Key) -> (stream: AsyncStream<Tick>, continuation: AsyncStream<Tick>.Continuation) {
        let (stream, continuation) = AsyncStream.makeStream(of: Tick.self, bufferingPolicy: .bufferingNewest(2))
        let id = nextID.add(1, ordering: .relaxed).newValue
        streams.withLock { $0[walker, default: [:]][id] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.streams.withLock { streams in
                streams[walker]?[id] = nil
                if streams[walker]?.isEmpty == true { streams[walker] = nil }
            }
        }
        continuation.yield(.changed)
        return (stream, continuation)
    }

    func changed(_ walker: Key) {
        let waiting = streams.withLock { $0[walker].map { Array($0.values) } ?? [] }
        for continuation in waiting { continuation.yield(.changed) }
    }

    /// Ends every stream (shutdown).
    func finishAll() {
        let all = streams.withLock { streams in
            defer { streams.removeAll() }
            return streams.values.flatMap(\.values)
        }
        for continuation in all { continuation.finish() }
    }

    var count: Int { streams.withLock { $0.values.reduce(0) { $0 + $1.count } } }
}
