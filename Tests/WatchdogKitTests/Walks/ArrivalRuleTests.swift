import Foundation
import SafeWalkCore
import Testing

@testable import WatchdogKit

/// Two fixes in a row whose accuracy circles lie within 50 m of `to` end the walk as `arrived`.
@Suite struct ArrivalRuleTests {
    typealias F = WalkFixtures

    func walking(extend: Bool = false) -> MachineHarness {
        var h = MachineHarness(thresholds: F.quiet)
        h.send(F.startWalk(extend: extend), at: 1_000)
        return h
    }

    @Test func theRadiusIsInclusive() {
        #expect(ArrivalRule.isAt(distance: 0, accuracy: 50))
        #expect(ArrivalRule.isAt(distance: 50, accuracy: 0))
        #expect(ArrivalRule.isAt(distance: 30, accuracy: 20))
        #expect(!ArrivalRule.isAt(distance: 0, accuracy: 50.01))
        #expect(!ArrivalRule.isAt(distance: 50.01, accuracy: 0))
        #expect(!ArrivalRule.isAt(distance: 0, accuracy: nil), "unknown accuracy is never there")
        #expect(!ArrivalRule.isAt(distance: .nan, accuracy: 0))
    }

    @Test func twoFixesExactly50MetresOutArrive() {
        var h = walking()
        h.send(F.fix(F.home, acc: 50, at: 1_100), at: 1_100)
        #expect(h.watch.isWatching, "one fix is not enough")
        h.send(F.fix(F.home, acc: 50, at: 1_110), at: 1_110)
        #expect(!h.watch.isWatching)
        #expect(h.arrivals == [Arrival(walker: h.watch.walker, at: 1_110, destination: "Home", automatic: true)])
    }

    @Test func fixesAHundredthOfAMetreFurtherNeverArrive() {
        var h = walking()
        for n in 0..<10 { h.send(F.fix(F.home, acc: 50.01, at: 1_100 + Double(n)), at: 1_100 + Double(n)) }
        for n in 0..<10 { h.send(F.fix(meters: 50.01, acc: 0, at: 1_200 + Double(n)), at: 1_200 + Double(n)) }
        #expect(h.watch.isWatching)
        #expect(h.arrivals.isEmpty)
    }

    @Test func fixesJustInsideByDistanceArrive() {
        var h = walking()
        h.send(F.fix(meters: 49.99, acc: 0, at: 1_100), at: 1_100)
        h.send(F.fix(meters: 49.99, bearing: 90, acc: 0, at: 1_101), at: 1_101)
        #expect(h.arrivals.count == 1)
    }

    @Test func aFixCoarserThanTheRadiusNeverArrivesEvenRightThere() {
        var h = walking()
        for n in 0..<20 { h.send(F.fix(F.home, acc: 65, at: 1_100 + Double(n)), at: 1_100 + Double(n)) }
        for n in 0..<20 { h.send(F.fix(F.home, acc: nil, at: 1_200 + Double(n)), at: 1_200 + Double(n)) }
        #expect(h.watch.isWatching)
        #expect(h.arrivals.isEmpty)
    }

    @Test func aWalkerCirclingTheDestinationAt60MetresNeverArrives() {
        var h = walking()
        for n in 0..<72 {
            let t = 1_100 + Double(n) * 5
            h.send(F.fix(meters: 60, bearing: Double(n) * 10, acc: 3, at: t), at: t)
        }
        #expect(h.watch.isWatching)
        #expect(h.arrivals.isEmpty)
    }

    /// GPS jitter across the edge: in, out, in, out never arrives; in, in does.
    @Test func jitterAcrossTheEdgeArrivesOnlyOnTwoInARow() {
        var h = walking()
        let inside = 45.0
        let outside = 56.0
        var t = 1_100.0
        for meters in [inside, outside, inside, outside, inside, outside] {
            h.send(F.fix(meters: meters, acc: 5, at: t), at: t)
            t += 5
        }
        #expect(h.watch.isWatching, "in/out/in/out…")
        #expect(h.arrivals.isEmpty)
        h.send(F.fix(meters: inside, acc: 5, at: t), at: t)
        h.send(F.fix(meters: inside, acc: 5, at: t + 5), at: t + 5)
        #expect(!h.watch.isWatching, "in, in")
        #expect(h.arrivals.map(\.at) == [t + 5])
    }

    @Test func theSameFixDeliveredTwiceIsOneFix() {
        var h = walking()
        h.send(F.fix(F.home, acc: 5, at: 1_100), at: 1_100)
        h.send(F.fix(F.home, acc: 5, at: 1_100), at: 1_101)
        #expect(h.watch.isWatching, "a retained position redelivered is not a second fix")
    }

    @Test func arrivingEndsTheWatchExactlyAsTheArrivedActionDoes() {
        var automatic = walking()
        var byHand = walking()
        automatic.send(F.fix(F.home, acc: 5, at: 1_100), at: 1_100)
        automatic.send(F.fix(F.home, acc: 5, at: 1_110), at: 1_110)
        byHand.send(F.fix(F.home, acc: 5, at: 1_100), at: 1_100)
        byHand.send(.action(Action(id: "here", kind: .arrived)), at: 1_110)
        #expect(automatic.statuses.last == byHand.statuses.last)
        #expect(automatic.statuses.last == WatchStatus(state: .safe, watching: false, since: 1_110))
        #expect(automatic.watch.walk == nil && automatic.watch.progress == nil)
        #expect(
            byHand.arrivals == [Arrival(walker: byHand.watch.walker, at: 1_110, destination: "Home", automatic: false)])
        automatic.run(until: 200_000)
        #expect(automatic.escalations.isEmpty && automatic.prompts.isEmpty, "nothing is timed after the walk")
    }

    @Test func aWalkWithoutToNeverArrivesByItself() {
        var h = MachineHarness(thresholds: F.quiet)
        h.send(F.startWalk(to: nil), at: 1_000)
        h.send(F.fix(F.home, acc: 5, at: 1_100), at: 1_100)
        h.send(F.fix(F.home, acc: 5, at: 1_110), at: 1_110)
        #expect(h.watch.isWatching)
        #expect(h.watch.progress == nil)
    }

    /// Automatic arrival never ends an incident: the walker must say so, with the PIN if set.
    @Test func anOpenIncidentIsLeftAloneWhenTheWalkerReachesTheDestination() {
        var h = walking()
        h.act(.panic(.amber), at: 1_050)
        let opened = h.incidents.count
        h.send(F.fix(F.home, acc: 5, at: 1_100), at: 1_100)
        h.send(F.fix(F.home, acc: 5, at: 1_110), at: 1_110)
        h.send(F.fix(F.home, acc: 5, at: 1_120), at: 1_120)
        #expect(h.watch.state == .alert)
        #expect(h.watch.isWatching)
        #expect(h.arrivals.isEmpty)
        #expect(h.incidents.count == opened, "no close on _incidents/{w}")
    }

    /// After a duress PIN the device believes the incident cancelled, so the walk must arrive as it
    /// would after a cancel; the duress incident stays open for the services.
    @Test func underDuressTheWalkArrivesAsAfterACancelAndTheIncidentStaysOpen() {
        func endedWith(_ pin: PINVerdict) -> MachineHarness {
            var h = walking()
            h.watch.pins = PINHashes(salt: [1], cancel: [2], duress: [3])
            h.act(.panic(.amber), at: 1_050)
            h.send(.action(Action(id: "safe", kind: .imSafe), ActionCheck(pin: pin)), at: 1_060)
            h.send(F.fix(F.home, acc: 5, at: 1_100), at: 1_100)
            h.send(F.fix(F.home, acc: 5, at: 1_110), at: 1_110)
            return h
        }
        let cancelled = endedWith(.cancel)
        let coerced = endedWith(.duress)
        #expect(cancelled.statuses.last == coerced.statuses.last)
        #expect(!coerced.watch.isWatching)
        #expect(coerced.arrivals.map(\.automatic) == [true])
        #expect(coerced.watch.duress != nil)
        #expect(coerced.incidents.last?.state == .open && coerced.incidents.last?.duress == true)
    }

    @Test func arrivedUnderDuressEndsTheWalkAndStillTellsTheServices() {
        var h = walking()
        h.watch.pins = PINHashes(salt: [1], cancel: [2], duress: [3])
        h.act(.panic(.amber), at: 1_050)
        h.send(.action(Action(id: "here", kind: .arrived), ActionCheck(pin: .duress)), at: 1_060)
        #expect(!h.watch.isWatching)
        #expect(h.arrivals.map(\.automatic) == [false])
        #expect(h.watch.duress != nil)
    }

    @Test func arrivedWithoutAWatchTellsNobody() {
        var h = MachineHarness(thresholds: F.quiet)
        h.act(.arrived, at: 1_000)
        #expect(h.arrivals.isEmpty)
        h.act(.start, at: 1_010)
        h.act(.arrived, at: 1_020)
        #expect(h.arrivals == [Arrival(walker: h.watch.walker, at: 1_020, destination: nil, automatic: false)])
    }

    @Test func aRefusedArrivedTellsNobody() {
        var h = walking()
        h.watch.pins = PINHashes(salt: [1], cancel: [2], duress: nil)
        h.act(.panic(.amber), at: 1_050)
        h.act(.arrived, at: 1_060)
        #expect(h.watch.isWatching)
        #expect(h.arrivals.isEmpty)
    }
}
