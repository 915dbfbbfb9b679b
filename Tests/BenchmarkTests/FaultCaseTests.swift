import SafeWalkCore
import Testing

@testable import e2e_load_bench

/// A fault case that fails a service over must start that service's standby, or the fault finds
/// none and the run stops (and one that starts a standby it never uses measures an idle process).
@Suite struct FaultCaseTests {
    @Test func everyFailOverHasItsStandbyAndEveryStandbyItsFailOver() {
        for c in Faults.all(window: 90) + Faults.shortCases {
            let failOvers = c.steps.filter { $0.name.hasSuffix("its standby takes over") }.map(\.name)
            let expected = c.standbys.map { "SIGKILL \($0); its standby takes over" }
            #expect(failOvers.sorted() == expected.sorted(), "\(c.name)")
        }
        #expect(Faults.clusterQuick.standbys == [Instance(.watchdog), Instance(.notifier)])
    }

    /// Several partitions need the nodes' mappings: only NATS cases have them, and each partition
    /// is an instance of its own (its own directory, client id and standby).
    @Test func severalPartitionsRunOnlyOnNATSEachAnInstance() {
        for c in Faults.all(window: 90) + Faults.shortCases where c.partitions > 1 { #expect(c.onNATS, "\(c.name)") }
        #expect(Faults.clusterPartitions.partitions == 2)
        #expect(
            Instance.all([.locationIngest, .watchdog, .companionChat], partitions: 2).map(\.description)
                == [
                    "location-ingest-0", "location-ingest-1", "watchdog-0", "watchdog-1", "companion-chat-0",
                    "companion-chat-1",
                ])
        #expect(Instance.all([.watchdog], partitions: 1).map(\.description) == ["watchdog"])
        #expect(Instance.serviceName(of: "watchdog-1") == "watchdog")
        #expect(Instance.serviceName(of: "location-ingest") == "location-ingest")
        #expect(Instance.serviceName(of: "nats-server 0") == "nats-server 0")
    }

    /// After a partitioned run, each watchdog's store must hold only its own walkers, at least
    /// one, and no walker may be in two.
    @Test func thePartitionsStoresAreCheckedWalkerByWalker() {
        // w0…w19 split as the engine's partition(2, walker) splits them.
        let walkers = (0..<20).map { "w\($0)" }
        let own = (0..<2).map { k in walkers.filter { Self.partition($0) == k } }
        #expect(PartitionStores.problems(own.map { $0 }).isEmpty)
        let swapped = [own[1], own[0]]
        #expect(PartitionStores.problems(swapped).count == 2)
        let twice = [own[0] + [own[1][0]], own[1]]
        #expect(PartitionStores.problems(twice).contains { $0.contains("in partitions 0 and 1") })
        #expect(PartitionStores.problems([own[0], []]).contains { $0.contains("holds no walker") })
        #expect(PartitionStores.problems([own[0], nil]).contains { $0.contains("could not be read") })
    }

    static func partition(_ id: String) -> Int { WalkerPartition.of(WalkerID(validating: id)!, count: 2) }

    /// A partition needs nodes in namespaces of their own; only those cases ask for them.
    @Test func everyPartitionRunsOnIsolatedNATSNodes() {
        for c in Faults.all(window: 90) + Faults.shortCases {
            let partitions = c.steps.filter { $0.name.hasPrefix("network partition") }
            #expect(partitions.isEmpty != c.isolatedNodes, "\(c.name)")
            if c.isolatedNodes { #expect(c.onNATS, "\(c.name)") }
        }
        #expect(Faults.names.isSuperset(of: ["cluster-partition", "nats-partition"]))
    }

    /// The partition step checks the services at home on the cut node moved, by their log.
    @Test func aMoveIsCountedFromTheServicesOwnLogLine() {
        let log = """
            2026-11-27T21:45:45+0000 warning safewalk.notifier: node=10.201.14.11:21438 [SafeWalkMQTT] moving to another broker node
            2026-11-27T21:45:45+0000 info safewalk.notifier: node=10.201.14.11:21438 [SafeWalkMQTT] connected to broker
            2026-11-27T21:47:02+0000 warning safewalk.notifier: node=10.201.14.12:20264 [SafeWalkMQTT] moving to another broker node
            """
        #expect(Cluster.moves(in: log) == 2)
        #expect(Cluster.moves(in: "") == 0)
    }
}
