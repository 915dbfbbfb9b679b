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
        #expect(Faults.clusterQuick.standbys == [.watchdog, .notifier])
    }

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
