import SafeWalkCore
import Testing
import WatchdogKit

/// The rule that keeps a watchdog cut off from its broker from escalating every walker
/// (``BrokerLink``): deadlines wait while the broker is silent, and a long silence is credited.
@Suite struct BrokerLinkTests {
    static let settings = BrokerLink.Settings(heartbeat: 1, slack: 2, cutAfter: 5)

    @Test func deadlinesFireUpToALittleAfterTheLastWordFromTheBroker() {
        let link = BrokerLink(settings: Self.settings, heardAt: 100)
        #expect(link.firesUpTo(101) == 101, "a live link holds nothing")
        #expect(link.firesUpTo(102) == 102)
        #expect(link.firesUpTo(150) == 102, "after the slack, nothing later fires")
    }

    @Test func onlyASilenceLongerThanTheCutIsCredited() {
        var link = BrokerLink(settings: Self.settings, heardAt: 100)
        #expect(link.heard(at: 101) == nil)
        #expect(link.heard(at: 105.5) == nil, "4.5 s is a quiet moment, not a cut")
        #expect(link.heard(at: 130) == 24.5)
        #expect(link.heardAt == 130)
        #expect(link.firesUpTo(131) == 131, "once heard, the clocks run again")
    }

    @Test func wordsReadLateTogetherAreASilenceOnlyWhereTheyLeaveAGap() {
        // A loop busy for 8 s reads eight heartbeats a second apart at once: the broker was
        // never silent, and nothing is credited. Read as one word at the end (the rule before,
        // which took the latest acknowledgement), the same 8 s would have been credited.
        var late = BrokerLink(settings: Self.settings, heardAt: 100)
        #expect(late.heard(inOrder: (1...8).map { 100 + Double($0) }).isEmpty)
        #expect(late.heardAt == 108)
        var latestOnly = BrokerLink(settings: Self.settings, heardAt: 100)
        #expect(latestOnly.heard(at: 108) == 8)

        // A cut among them is still found, and only it.
        var cut = BrokerLink(settings: Self.settings, heardAt: 100)
        #expect(cut.heard(inOrder: [101, 102, 130, 131, 131.5]) == [28])
        #expect(cut.heardAt == 131.5)
    }

    @Test func anOlderWordChangesNothing() {
        var link = BrokerLink(settings: Self.settings, heardAt: 100)
        #expect(link.heard(at: 90) == nil)
        #expect(link.heard(at: -.infinity) == nil)
        #expect(link.heardAt == 100)
    }
}
