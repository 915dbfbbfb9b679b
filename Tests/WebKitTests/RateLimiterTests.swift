import SafeWalkWebKit
import TestSupport
import Testing

@Suite struct RateLimiterTests {
    typealias Instant = ObservedTestClock.Instant
    let start = ObservedTestClock().now

    func at(_ seconds: Double) -> Instant { start.advanced(by: .seconds(seconds)) }

    /// The decisions of attempts made in turn, each `(key, seconds)`.
    func decisions(_ limiter: inout RateLimiter<Instant>, _ attempts: [(String, Double)]) -> [RateLimiter<Instant>
        .Decision]
    {
        attempts.map { limiter.take($0.0, at: at($0.1)) }
    }

    @Test func aBurstIsAllowedThenAttemptsAreEarnedBackEvenly() {
        var limiter = RateLimiter<Instant>(rule: RateRule(burst: 5, per: .seconds(600)))
        let burst = decisions(&limiter, Array(repeating: ("1.2.3.4", 0), count: 5))
        #expect(burst == Array(repeating: .allowed, count: 5))
        let after = decisions(&limiter, [("1.2.3.4", 0), ("1.2.3.4", 60), ("1.2.3.4", 120), ("1.2.3.4", 121)])
        #expect(after[0] == .limited(retryAfter: .seconds(120)))
        #expect(after[1] == .limited(retryAfter: .seconds(60)))
        #expect(after[2] == .allowed && after[3] != .allowed)
        // Another key has its own bucket.
        let other = decisions(&limiter, [("5.6.7.8", 121)])
        #expect(other == [.allowed])
    }

    @Test func aRefusedAttemptCostsNothing() {
        var limiter = RateLimiter<Instant>(rule: RateRule(burst: 1, per: .seconds(10)))
        let made = decisions(&limiter, (0...10).map { ("k", Double($0)) })
        #expect(made.first == .allowed && made.last == .allowed)
        #expect(made.dropFirst().dropLast().allSatisfy { $0 != .allowed })
    }

    @Test func memoryStaysBoundedUnderTenThousandAddresses() {
        var limiter = RateLimiter<Instant>(rule: RateRule(burst: 5, per: .seconds(600)), maxKeys: 1_000)
        for index in 0..<10_000 {
            _ = limiter.take("10.0.\(index / 256).\(index % 256)", at: at(Double(index) / 100))
            #expect(limiter.count <= 1_000)
        }
        // A key that keeps trying is remembered while newer keys arrive (the oldest are forgotten).
        for _ in 0..<5 { _ = limiter.take("attacker", at: at(200)) }
        for index in 0..<50 { _ = limiter.take("fresh-\(index)", at: at(200)) }
        let again = decisions(&limiter, [("attacker", 200)])
        #expect(again != [.allowed])
    }

    @Test func bucketsThatFilledAgainAreForgottenFirst() {
        var limiter = RateLimiter<Instant>(rule: RateRule(burst: 2, per: .seconds(10)), maxKeys: 3)
        _ = limiter.take("a", at: at(0))
        _ = limiter.take("b", at: at(0))
        _ = limiter.take("c", at: at(100))
        _ = limiter.take("c", at: at(100))
        _ = limiter.take("d", at: at(100))  // a and b are full again by now: they make room
        #expect(limiter.count == 2)
        let third = decisions(&limiter, [("c", 100)])
        #expect(third != [.allowed])
    }

    @Test func theGateSpendsNothingWhenOneKeyIsLimited() async {
        let clock = ObservedTestClock()
        let gate = RateGate(
            limits: RateLimits(
                signInPerAddress: RateRule(burst: 10, per: .seconds(60)),
                signInPerAccount: RateRule(burst: 2, per: .seconds(60))),
            clock: clock)
        #expect(gate.admit([(.signInPerAddress, "1.1.1.1"), (.signInPerAccount, "alice")]) == nil)
        #expect(gate.admit([(.signInPerAddress, "1.1.1.1"), (.signInPerAccount, "alice")]) == nil)
        #expect(gate.admit([(.signInPerAddress, "1.1.1.1"), (.signInPerAccount, "alice")]) == .seconds(30))
        // The address spent two, not three: eight more for other accounts.
        for index in 0..<8 {
            #expect(gate.admit([(.signInPerAddress, "1.1.1.1"), (.signInPerAccount, "u\(index)")]) == nil)
        }
        #expect(gate.admit([(.signInPerAddress, "1.1.1.1")]) != nil)
        await clock.advance(by: .seconds(30))
        #expect(gate.admit([(.signInPerAccount, "alice")]) == nil)
    }
}

@Suite struct ClientAddressTests {
    @Test func thePeerIsTheAddressUnlessItIsATrustedProxy() {
        #expect(
            ClientAddress.resolve(peer: "203.0.113.9", forwardedFor: ["1.2.3.4"], trustedProxies: []) == "203.0.113.9")
        #expect(
            ClientAddress.resolve(peer: "203.0.113.9", forwardedFor: ["1.2.3.4"], trustedProxies: ["10.0.0.2"])
                == "203.0.113.9")
        #expect(ClientAddress.resolve(peer: nil, forwardedFor: [], trustedProxies: []) == "unknown")
    }

    @Test func behindTheProxyTheRightMostUntrustedHopIsTheClient() {
        let proxies: Set<String> = ["10.0.0.2", "10.0.0.3"]
        #expect(
            ClientAddress.resolve(peer: "10.0.0.2", forwardedFor: ["1.2.3.4"], trustedProxies: proxies) == "1.2.3.4")
        // The client wrote a made-up left part; our proxy appended what it saw.
        #expect(
            ClientAddress.resolve(peer: "10.0.0.2", forwardedFor: ["6.6.6.6, 1.2.3.4"], trustedProxies: proxies)
                == "1.2.3.4")
        #expect(
            ClientAddress.resolve(peer: "10.0.0.2", forwardedFor: ["1.2.3.4", "10.0.0.3"], trustedProxies: proxies)
                == "1.2.3.4")
        #expect(
            ClientAddress.resolve(peer: "10.0.0.2", forwardedFor: ["2001:db8::1"], trustedProxies: proxies)
                == "2001:db8::1")
    }

    @Test func aHeaderThatIsNoAddressIsNotUsed() {
        let proxies: Set<String> = ["10.0.0.2"]
        #expect(
            ClientAddress.resolve(
                peer: "10.0.0.2", forwardedFor: [String(repeating: "9", count: 1000)], trustedProxies: proxies)
                == "10.0.0.2")
        #expect(
            ClientAddress.resolve(peer: "10.0.0.2", forwardedFor: ["evil<script>"], trustedProxies: proxies)
                == "10.0.0.2")
        #expect(ClientAddress.resolve(peer: "10.0.0.2", forwardedFor: [], trustedProxies: proxies) == "10.0.0.2")
    }
}
