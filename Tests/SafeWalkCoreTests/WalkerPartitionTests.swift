import Testing

@testable import SafeWalkCore

@Suite("Watchdog partitions")
struct WalkerPartitionTests {
    /// Where nats-server 2.15.1 routed each walker's `action` with `safewalk nats-mappings
    /// --watchdogs 3` (one node, `mosquitto_sub -t 'safewalk/+/action/#'`, 2026-11-28): the
    /// function the watchdogs compute must be the engine's, or two instances answer for a walker.
    static let routedByTheEngine: [(String, Int)] = [
        ("alice", 2), ("bob", 2), ("carol", 2), ("dave", 1), ("erin", 1), ("frank", 2), ("w1", 1), ("w2", 1),
        ("w3", 0), ("w10", 2), ("w100", 1), ("w0001", 2), ("a", 1), ("b", 1), ("zz", 0), ("walker-7", 0),
        ("x_y", 1),
    ]

    @Test("the partition of a walker is the engine's partition(3, walker)")
    func matchesTheEngine() throws {
        for (id, partition) in Self.routedByTheEngine {
            let walker = try #require(WalkerID(validating: id))
            #expect(WalkerPartition.of(walker, count: 3) == partition, "\(id)")
            #expect(WalkerPartition(index: partition, count: 3)?.owns(walker) == true)
            #expect(WalkerPartition(index: (partition + 1) % 3, count: 3)?.owns(walker) == false)
        }
    }

    @Test("every walker is owned by exactly one of N, and N spreads them")
    func exactlyOneOwner() throws {
        for count in [2, 3, 7] {
            var sizes = Array(repeating: 0, count: count)
            for n in 0..<3_000 {
                let walker = try #require(WalkerID(validating: "w\(n)"))
                let owners = (0..<count).filter { WalkerPartition(index: $0, count: count)!.owns(walker) }
                #expect(owners.count == 1)
                sizes[owners[0]] += 1
            }
            #expect(sizes.allSatisfy { $0 > 3_000 / count / 2 }, "\(sizes)")
        }
    }

    @Test("one watchdog is no partition; an index outside 0..<N is refused")
    func bounds() {
        #expect(WalkerPartition(index: 0, count: 1) == nil)
        #expect(WalkerPartition(index: 2, count: 2) == nil)
        #expect(WalkerPartition(index: -1, count: 2) == nil)
        #expect(WalkerPartition(index: 0, count: 1_000) == nil)
        #expect(WalkerPartition(index: 998, count: 999)?.level == "998")
    }

    @Test("a partitioned input parses with or without its partition; nothing else takes one")
    func parsing() throws {
        let alice = try #require(WalkerID(validating: "alice"))
        #expect(Topic.parse("safewalk/alice/action/1") == .action(alice))
        #expect(Topic.parse("safewalk/alice/action") == .action(alice))
        #expect(Topic.parse("safewalk/alice/action/result") == .actionResult(alice))
        #expect(Topic.parse("safewalk/alice/position/0") == .position(alice))
        #expect(Topic.parse("safewalk/alice/reply/998") == .reply(alice))
        #expect(Topic.parse("safewalk/alice/presence/12") == .presence(alice))
        #expect(Topic.parse("safewalk/_escalations/received/alice/1") == .escalationReceived(alice))
        #expect(Topic.parse("safewalk/_escalations/received/alice") == .escalationReceived(alice))
        // Not a partition level: a leading zero, four digits, a sign, a letter.
        for level in ["01", "1000", "-1", "1a", ""] {
            #expect(Topic.parse("safewalk/alice/action/\(level)") == nil, "\(level)")
        }
        // Kinds the engine never routes take no partition.
        for kind in ["status", "escalation", "alert", "contacts/add", "chat"] {
            #expect(Topic.parse("safewalk/alice/\(kind)/1") == nil, "\(kind)")
        }
        #expect(Topic.parse("safewalk/_incidents/alice/1") == nil)
        // Fixes, ours and OwnTracks' (whose apps' own `.../cmd` is never a partition).
        #expect(Topic.parse("safewalk/alice/fix/1") == .fix(alice))
        #expect(
            Topic.parse("owntracks/alice/phone/1") == .owntracks(user: alice, device: DeviceName(validating: "phone")!))
        #expect(Topic.parse("owntracks/alice/phone/cmd") == nil)
        #expect(Topic.parse("owntracks/alice/phone/01") == nil)
        #expect(Topic.parse("safewalk/alice/action/1/1") == nil)
    }

    @Test("each partitioned instance reports on its own status topic; other service topics take no partition")
    func instanceStatus() {
        #expect(Topic.parse("safewalk/_service/watchdog/1") == .serviceStatus(.watchdog))
        #expect(Topic.parse("safewalk/_service/watchdog") == .serviceStatus(.watchdog))
        #expect(Topic.parse("safewalk/_service/watchdog/01") == nil)
        #expect(Topic.parse("safewalk/_rejected/watchdog/1") == nil)
        #expect(Topic.parse("safewalk/_heartbeat/watchdog/1") == nil)
        let every = TopicFilter.every(.serviceStatus)
        #expect(every.rawValue == "safewalk/_service/+/#")
        #expect(every.matches("safewalk/_service/notifier") && every.matches("safewalk/_service/watchdog/1"))
    }

    @Test("readers of a partitioned kind take its routed form; a watchdog reads its own partition")
    func filters() {
        #expect(TopicFilter.every(.position).rawValue == "safewalk/+/position/#")
        #expect(TopicFilter.every(.escalationReceived).rawValue == "safewalk/_escalations/received/+/#")
        #expect(TopicFilter.every(.status).rawValue == "safewalk/+/status")
        let second = WalkerPartition(index: 1, count: 4)
        #expect(TopicFilter.partitionInput(.action, partition: second).rawValue == "safewalk/+/action/1")
        #expect(TopicFilter.partitionInput(.action, partition: nil).rawValue == "safewalk/+/action")
        #expect(
            TopicFilter.partitionInput(.escalationReceived, partition: second).rawValue
                == "safewalk/_escalations/received/+/1")
        #expect(TopicFilter.every(.position).matches("safewalk/alice/position"))
        #expect(TopicFilter.every(.position).matches("safewalk/alice/position/3"))
    }

    @Test("the engine's mappings route exactly the partitioned kinds, under the prefix")
    func mappings() {
        let block = WalkerPartition.natsMappings(count: 4, prefix: "campus/safewalk")
        #expect(block.hasPrefix("mappings = {\n") && block.hasSuffix("}\n"))
        #expect(
            block.contains(#""campus.safewalk.*.action": "campus.safewalk.{{wildcard(1)}}.action.{{partition(4,1)}}""#))
        #expect(
            block.contains(
                #""campus.safewalk._escalations.received.*": "campus.safewalk._escalations.received.{{wildcard(1)}}.{{partition(4,1)}}""#
            ))
        let routed = block.split(separator: "\n").filter { $0.contains("partition(") }
        #expect(routed.count == Topic.Kind.allCases.filter(\.isPartitioned).count)
        #expect(!block.contains(".status"))
        // OwnTracks topics are outside the prefix.
        #expect(block.contains(#""owntracks.*.*": "owntracks.{{wildcard(1)}}.{{wildcard(2)}}.{{partition(4,1)}}""#))
    }
}
