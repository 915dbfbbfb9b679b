import LocationIngestKit
import SafeWalkCore
import Testing

@Suite struct MovementTests {
    let rule = MovementRule()
    let anchor = MovementAnchor(lat: austin.lat, lon: austin.lon, acc: 0, tst: t0, movedAt: t0)

    @Test func theFirstFixIsNotMovement() {
        let step = rule.apply(fix(at: austin, tst: t0), to: nil)
        #expect(step.verdict == .first)
        #expect(!step.moved)
        #expect(step.anchor == anchor)
    }

    @Test func exactlyFiveMetresIsNotMovement() {
        #expect(!rule.provesMovement(meters: 5, accuracies: 0, 0))
        #expect(rule.provesMovement(meters: 5.000_001, accuracies: 0, 0))
    }

    @Test func justUnderAndJustOverFiveMetresOnTheGround() {
        let under = rule.apply(fix(at: north(of: austin, meters: 4.99), tst: t0 + 10), to: anchor)
        #expect(!under.moved)
        let over = rule.apply(fix(at: north(of: austin, meters: 5.01), tst: t0 + 10), to: anchor)
        #expect(over.moved)
    }

    @Test func movementMovesTheAnchorAndStampsTheFixTime() {
        let there = north(of: austin, meters: 30)
        let step = rule.apply(fix(at: there, tst: t0 + 20, acc: 4), to: anchor)
        #expect(step.anchor == MovementAnchor(lat: there.lat, lon: there.lon, acc: 4, tst: t0 + 20, movedAt: t0 + 20))
    }

    @Test func poorAccuracyCannotFakeMovement() {
        var start = anchor
        start.acc = 10
        let step = rule.apply(fix(at: north(of: austin, meters: 20), tst: t0 + 10, acc: 10), to: start)
        guard case .inconclusive(let meters) = step.verdict else {
            Issue.record("expected inconclusive, got \(step.verdict)")
            return
        }
        #expect(abs(meters - 20) < 1e-6)
        #expect(step.anchor == start)
    }

    @Test func bothAccuracyRadiiAreSubtractedFromTheDistance() {
        // 25 m apart with 10 m radii each: the true move could be as little as 5 m, which is not > 5.
        #expect(!rule.provesMovement(meters: 25, accuracies: 10, 10))
        #expect(rule.provesMovement(meters: 25.01, accuracies: 10, 10))
        #expect(!rule.provesMovement(meters: 25.01, accuracies: 20, 0.01))
    }

    @Test func unknownAccuracyNeverProvesMovement() {
        #expect(!rule.provesMovement(meters: 10_000, accuracies: nil, 0))
        #expect(!rule.provesMovement(meters: 10_000, accuracies: 0, nil))
        let step = rule.apply(fix(at: north(of: austin, meters: 1_000), tst: t0 + 10, acc: nil), to: anchor)
        #expect(step.verdict.name == "inconclusive")
        #expect(step.anchor == anchor)
    }

    @Test func nonFiniteDistancesNeverProveMovement() {
        #expect(!rule.provesMovement(meters: .nan, accuracies: 0, 0))
        #expect(!rule.provesMovement(meters: .infinity, accuracies: 0, 0))
    }

    @Test func aMoreAccurateFixReplacesAnUnknownAnchorWithoutCountingAsMovement() {
        var vague = anchor
        vague.acc = nil
        let near = north(of: austin, meters: 3)
        let step = rule.apply(fix(at: near, tst: t0 + 10, acc: 5), to: vague)
        #expect(!step.moved)
        #expect(step.anchor == MovementAnchor(lat: near.lat, lon: near.lon, acc: 5, tst: t0 + 10, movedAt: t0))
        // From that better anchor, a real move can now be proven.
        let later = rule.apply(fix(at: north(of: near, meters: 20), tst: t0 + 30, acc: 5), to: step.anchor)
        #expect(later.moved)
    }

    @Test func aLessAccurateFixLeavesTheAnchorAlone() {
        var sharp = anchor
        sharp.acc = 3
        let step = rule.apply(fix(at: north(of: austin, meters: 2), tst: t0 + 10, acc: 8), to: sharp)
        #expect(step.verdict.name == "stationary")
        #expect(step.anchor == sharp)
    }

    @Test func movementIsMeasuredFromTheAnchorNotTheLastFix() {
        var current = anchor
        var moved: [Bool] = []
        for metres in [2.0, 4.0, 6.0] {
            let step = rule.apply(fix(at: north(of: austin, meters: metres), tst: t0 + metres), to: current)
            current = step.anchor
            moved.append(step.moved)
        }
        #expect(moved == [false, false, true])
    }

    @Test func outOfOrderFixesAreIgnored() {
        let step = rule.apply(fix(at: north(of: austin, meters: 100), tst: t0 - 1), to: anchor)
        #expect(step.verdict == .outOfOrder)
        #expect(step.anchor == anchor)
    }

    @Test func theThresholdIsConfigurable() {
        let wide = SafetyThresholds(movementMeters: 10).movementRule
        #expect(!wide.provesMovement(meters: 8, accuracies: 0, 0))
        #expect(wide.provesMovement(meters: 10.5, accuracies: 0, 0))
    }
}

extension MovementVerdict {
    /// The case's name, to assert on the kind of verdict without its distance.
    var name: String {
        switch self {
        case .first: "first"
        case .moved: "moved"
        case .stationary: "stationary"
        case .inconclusive: "inconclusive"
        case .outOfOrder: "outOfOrder"
        }
    }
}

/// 2023-11-14 22:13:20 UTC.
private let t0: EpochSeconds = 1_700_000_000

private let austin = Coordinate(lat: 30.2849, lon: -97.7341)

private func fix(at c: Coordinate, tst: EpochSeconds = t0, acc: Double? = 0) -> LocationFix {
    LocationFix(lat: c.lat, lon: c.lon, tst: tst, acc: acc)
}

/// A point `meters` due north of `origin` (exact on the sphere: distance along a meridian).
private func north(of origin: Coordinate, meters: Double) -> Coordinate {
    Coordinate(lat: origin.lat + meters / Geo.earthRadiusMeters * 180 / .pi, lon: origin.lon)
}
