import LocationIngestKit
import SafeWalkCore
import Testing

@Suite struct TrackRuleTests {
    let rule = TrackRule(movement: MovementRule(thresholdMeters: 5))
    let t0 = Fixtures.now
    let lat = 30.2849
    let lon = -97.7341

    func fix(_ dMeters: Double = 0, at tst: EpochSeconds, acc: Double? = 3) -> LocationFix {
        LocationFix(lat: Fixtures.north(of: lat, by: dMeters), lon: lon, tst: tst, acc: acc)
    }

    func update(_ d: FixDisposition) -> PositionUpdate? {
        if case .accepted(let u) = d { return u }
        return nil
    }

    @Test func theFirstFixIsAPositionButNotMovement() throws {
        let (track, disposition) = rule.apply(fix(at: t0), to: nil)
        let u = try #require(update(disposition))
        #expect(!u.moved)
        #expect(u.lastMovedAt == t0)
        #expect(track?.anchor.tst == t0)
    }

    @Test func moreThanFiveMetresWithGoodAccuracyIsMovement() throws {
        let (first, _) = rule.apply(fix(at: t0, acc: 1), to: nil)
        let (track, d) = rule.apply(fix(20, at: t0 + 10, acc: 1), to: first)
        let u = try #require(update(d))
        #expect(u.moved)
        #expect(u.lastMovedAt == t0 + 10)
        #expect(track?.anchor.tst == t0 + 10)
    }

    @Test func poorOrUnknownAccuracyCannotFakeMovement() throws {
        let (first, _) = rule.apply(fix(at: t0, acc: 3), to: nil)
        let poor = try #require(update(rule.apply(fix(30, at: t0 + 10, acc: 50), to: first).1))
        #expect(!poor.moved)
        #expect(poor.lastMovedAt == t0)
        let unknown = try #require(update(rule.apply(fix(500, at: t0 + 10, acc: nil), to: first).1))
        #expect(!unknown.moved)
    }

    @Test func anExactDuplicateIsDropped() {
        let (first, _) = rule.apply(fix(at: t0), to: nil)
        let (track, d) = rule.apply(fix(at: t0), to: first)
        #expect(d == .duplicate)
        #expect(track == first)
    }

    @Test func anOlderFixDoesNotMoveTheWalkerBackwards() {
        let (first, _) = rule.apply(fix(at: t0), to: nil)
        let (second, _) = rule.apply(fix(50, at: t0 + 20), to: first)
        let (after, d) = rule.apply(fix(0, at: t0 + 10), to: second)
        #expect(d == .outOfOrder)
        #expect(after == second)
    }

    @Test func aDifferentFixWithTheSameTimeIsNotNewer() {
        let (first, _) = rule.apply(fix(at: t0), to: nil)
        #expect(rule.apply(fix(40, at: t0), to: first).1 == .outOfOrder)
    }
}
