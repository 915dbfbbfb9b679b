import TestSupport
import Testing

/// Ports picked for several listeners at once are all different (three NATS nodes once got one
/// port twice, and the node that lost the bind died), and each is free to bind.
@Suite struct FreePortsTests {
    @Test func manyPortsAreAllDifferent() throws {
        let ports = try Loopback.freePorts(500)
        #expect(ports.count == 500)
        #expect(Set(ports).count == 500)
        #expect(ports.allSatisfy { (20_000..<32_000).contains($0) })
    }

    /// One port at a time, as parallel tests ask for them, none comes back twice while nothing
    /// has bound it yet: two stacks once got one broker port and the second ran on the first's
    /// broker. Without the memory, a thousand draws from the 12,000 ports repeat about 40.
    @Test func aPortHandedOutIsNotHandedOutAgain() throws {
        let ports = try (0..<1_000).map { _ in try Loopback.freePort() }
        #expect(Set(ports).count == ports.count)
    }

    @Test func portsAlreadyTakenAreAvoided() throws {
        // All but a hundred of the range are taken: whatever comes back must be among those.
        let left = Set((20_000..<32_000).shuffled().prefix(100))
        let taken = Set(20_000..<32_000).subtracting(left)
        let ports = try Loopback.freePorts(3, avoiding: taken)
        #expect(Set(ports).count == 3)
        #expect(Set(ports).isSubset(of: left))
    }
}
