import Testing

@testable import e2e_load_bench

/// A fault case that fails a service over must start that service's standby, or the fault finds
/// none and the run stops (and one that starts a standby it never uses measures an idle process).
@Suite struct FaultCaseTests {
    @Test func everyFailOverHasItsStandbyAndEveryStandbyItsFailOver() {
        for c in Faults.all(window: 90) + [Faults.quick, Faults.clusterQuick] {
            let failOvers = c.steps.filter { $0.name.hasSuffix("its standby takes over") }.map(\.name)
            let expected = c.standbys.map { "SIGKILL \($0); its standby takes over" }
            #expect(failOvers.sorted() == expected.sorted(), "\(c.name)")
        }
        #expect(Faults.clusterQuick.standbys == [.watchdog, .notifier])
    }
}
