/// One of N partitions of the walkers on a clustered broker. The services that keep state per
/// walker run one instance per partition, each owning the walkers the engine routes to it:
/// watchdog K, companion-chat K and location-ingest K read partition K (docs/SCALING.md, "Walkers
/// partitioned").
///
/// The engine does the routing: NATS maps each partitioned kind (``Topic/Kind/isPartitioned``)
/// to the same topic with the walker's partition appended (`safewalk/alice/action` →
/// `safewalk/alice/action/1`), and instance K subscribes to the `/K` forms only. Nothing here reads
/// every walker's messages to throw most away. One mapping per kind means one N for the stack.
///
/// ``of(_:count:)`` computes the same function for the inputs whose topic names no walker (the
/// desk's close and an erasure: the walker is in the payload), so that exactly one instance
/// answers each, and to notice an engine set up for another N.
public struct WalkerPartition: Hashable, Sendable, CustomStringConvertible {
    /// This instance's partition, `0..<count`.
    public let index: Int
    /// How many partitions the engine's mapping makes.
    public let count: Int

    /// The most partitions a deployment may configure: each is a watchdog, a companion and an
    /// ingest with their own files and sessions, and the partition level of a topic is at most
    /// three digits.
    public static let maxCount = 999

    /// nil unless `count` is in `2...maxCount` and `index` in `0..<count` (one instance of each
    /// service is not partitioned: it reads the unmapped topics).
    public init?(index: Int, count: Int) {
        guard (2...Self.maxCount).contains(count), (0..<count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// The partition the engine routes `walker`'s inputs to: NATS's `partition(count, 1)` over
    /// the walker id, which is FNV-1a (32 bits) of its bytes, modulo `count`
    /// (nats-server `subject_transform.go`, `getHashPartition`). Pinned against the engine by
    /// `WalkerPartitionTests` and checked live by `scripts/cluster-stack.sh`.
    public static func of(_ walker: WalkerID, count: Int) -> Int {
        // FNV-1a's published 32-bit offset basis and prime. Not a library: swift-crypto has no
        // FNV, and these four lines must equal the engine's bit for bit, which the tests pin.
        var hash: UInt32 = 2_166_136_261
        for byte in walker.rawValue.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return Int(hash % UInt32(count))
    }

    /// Whether the engine routes `walker`'s inputs to this instance.
    public func owns(_ walker: WalkerID) -> Bool { Self.of(walker, count: count) == index }

    /// Whether the instance of `partition` answers a request about `walker` that every instance
    /// reads (the desk's close, an erasure): with no partition (one instance), always; else the
    /// instance that owns the walker, and partition 0 alone when the request names no readable
    /// walker (it is answered `refused`). One answer, never N that could disagree.
    public static func answers(_ partition: WalkerPartition?, for walker: WalkerID?) -> Bool {
        guard let partition else { return true }
        guard let walker else { return partition.index == 0 }
        return partition.owns(walker)
    }

    /// The level the engine appends to a routed topic: the partition in decimal.
    public var level: String { String(index) }

    public var description: String { "\(index) of \(count)" }

    /// Whether `level` can be a partition level: decimal digits without a leading zero, at most
    /// three (``maxCount``).
    static func isLevel<S: StringProtocol>(_ level: S) -> Bool {
        let utf8 = level.utf8
        guard let first = utf8.first, (1...3).contains(utf8.count), first != UInt8(ascii: "0") || utf8.count == 1
        else { return false }
        return utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
