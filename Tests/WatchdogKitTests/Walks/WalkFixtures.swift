import Foundation
import SafeWalkCore
import WatchdogKit

/// A walk to a known place, and fixes placed so many metres from it, for the walk rule tests.
enum WalkFixtures {
    /// Where the walks go: the Tower at UT Austin.
    static let home = Coordinate(lat: 30.2862, lon: -97.7394)
    /// Only the walk rules speak: check-ins, silence and stillness are far away.
    static let quiet = SafetyThresholds(checkInInterval: 100_000, noReplyAfter: 100_000, noMovementAfter: 100_000)

    /// A point `meters` from ``home`` along a bearing (degrees from north), on the sphere ``Geo``
    /// measures on, so ``Geo/distance(_:_:)`` gives `meters` back to within micrometres.
    static func point(_ meters: Double, bearing: Double = 0) -> Coordinate {
        let r = Geo.earthRadiusMeters
        let d = meters / r
        let theta = bearing * .pi / 180
        let lat1 = home.lat * .pi / 180
        let lon1 = home.lon * .pi / 180
        let lat2 = asin(sin(lat1) * cos(d) + cos(lat1) * sin(d) * cos(theta))
        let lon2 = lon1 + atan2(sin(theta) * sin(d) * cos(lat1), cos(d) - sin(lat1) * sin(lat2))
        return Coordinate(lat: lat2 * 180 / .pi, lon: lon2 * 180 / .pi)
    }

    /// The position ingest would publish for a fix at `place` taken at `tst`.
    static func fix(_ place: Coordinate, acc: Double?, at tst: EpochSeconds) -> WatchEvent {
        .position(
            PositionUpdate(
                fix: LocationFix(lat: place.lat, lon: place.lon, tst: tst, acc: acc), moved: true, lastMovedAt: tst))
    }

    /// A fix `meters` from home (north unless told), with accuracy `acc`.
    static func fix(meters: Double, bearing: Double = 0, acc: Double? = 5, at tst: EpochSeconds) -> WatchEvent {
        fix(point(meters, bearing: bearing), acc: acc, at: tst)
    }

    static func startWalk(
        minutes: Double = 30, to: Coordinate? = home, extend: Bool = false, id: String = "walk"
    ) -> WatchEvent {
        .action(
            Action(
                id: id, kind: .startWalk(destination: "Home", minutes: minutes), to: to,
                extendWhileProgressing: extend))
    }
}

extension MachineHarness {
    /// Every `_arrivals/{w}` event published, in order.
    var arrivals: [Arrival] {
        log.compactMap { entry in
            if case .publishArrival(let arrival) = entry.action { return arrival }
            return nil
        }
    }
}
