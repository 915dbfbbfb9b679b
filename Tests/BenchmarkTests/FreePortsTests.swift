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

    @Test func portsAlreadyTakenAreAvoided() throws {
        // All but a hundred of the range are taken: whatever comes back must be among those.
        let left = Set((20_000..<32_000).shuffled().prefix(100))
        let taken = Set(20_000..<32_000).subtracting(left)
        let ports = try Loopback.freePorts(3, avoiding: taken)
        #expect(Set(ports).count == 3)
        #expect(Set(ports).isSubset(of: left))
    }
}
