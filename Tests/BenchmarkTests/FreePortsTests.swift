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
}
