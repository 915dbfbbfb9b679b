import Foundation
import SafeWalkCore

/// Where the simulated walker is at each fix: along a route file, or a random walk.
public enum WalkPath: Sendable {
    case route(RoutePath)
    case random(RandomWalk)

    /// The current position, then the next one on each call.
    public mutating func next() -> Coordinate {
        switch self {
        case .route(var path):
            let point = path.next()
            self = .route(path)
            return point
        case .random(var walk):
            let point = walk.next()
            self = .random(walk)
            return point
        }
    }
}

/// Walks a route's waypoints in steps of about `stepMeters`, then back again (there and back
/// forever), so the walker keeps moving without jumping from the end to the start.
public struct RoutePath: Sendable {
    public let points: [Coordinate]
    private var index = 0
    private var forward = true

    /// Each leg is cut into pieces of at least `stepMeters` (a leg shorter than that is one
    /// step); repeated waypoints are dropped.
    public init(waypoints: [Coordinate], stepMeters: Double = 12) {
        var dense: [Coordinate] = []
        for point in waypoints {
            guard let last = dense.last else { dense.append(point); continue }
            let meters = Geo.distance(last, point)
            if meters == 0 { continue }
            let pieces = max(1, Int((meters / stepMeters).rounded(.down)))
            for piece in 1...pieces {
                let f = Double(piece) / Double(pieces)
                dense.append(
                    Coordinate(
                        lat: last.lat + (point.lat - last.lat) * f,
                        lon: last.lon + (point.lon - last.lon) * f))
            }
        }
        points = dense
    }

    public mutating func next() -> Coordinate {
        let point = points[index]
        guard points.count > 1 else { return point }
        if forward && index == points.count - 1 { forward = false }
        if !forward && index == 0 { forward = true }
        index += forward ? 1 : -1
        return point
    }
}

/// A wandering walk around `start` that moves `minStep...maxStep` metres between fixes and
/// turns back towards the start once it is more than `radius` metres away. Seeded, so the same
/// seed gives the same walk (tests, reproducible demos).
public struct RandomWalk: Sendable {
    /// The UT Austin campus (the Tower), the default start.
    public static let utAustin = Coordinate(lat: 30.2849, lon: -97.7341)

    public let start: Coordinate
    public let radius: Double
    public let minStep: Double
    public let maxStep: Double
    private var position: Coordinate
    private var heading: Double
    private var random: SeededRandom
    private var started = false

    public init(
        start: Coordinate = RandomWalk.utAustin, radius: Double = 400, minStep: Double = 8,
        maxStep: Double = 15, seed: UInt64 = UInt64.random(in: 0...UInt64.max)
    ) {
        precondition(minStep > 0 && maxStep >= minStep && radius > maxStep, "impossible random walk")
        self.start = start
        self.radius = radius
        self.minStep = minStep
        self.maxStep = maxStep
        position = start
        random = SeededRandom(seed: seed)
        heading = 0
        heading = random.unit() * 2 * .pi
    }

    public mutating func next() -> Coordinate {
        guard started else {
            started = true
            return position
        }
        if Geo.distance(position, start) > radius - maxStep {
            heading = Self.bearing(from: position, to: start)  // head home before leaving the circle
        } else {
            heading += (random.unit() - 0.5) * .pi / 2  // wander up to ±45°
        }
        let meters = minStep + random.unit() * (maxStep - minStep)
        position = Self.moved(position, meters: meters, heading: heading)
        return position
    }

    static func moved(_ from: Coordinate, meters: Double, heading: Double) -> Coordinate {
        let angular = meters / Geo.earthRadiusMeters
        let lat = from.lat * .pi / 180
        let dLat = angular * cos(heading)
        let dLon = angular * sin(heading) / cos(lat)
        return Coordinate(lat: from.lat + dLat * 180 / .pi, lon: from.lon + dLon * 180 / .pi)
    }

    static func bearing(from a: Coordinate, to b: Coordinate) -> Double {
        let north = (b.lat - a.lat) * .pi / 180
        let east = (b.lon - a.lon) * .pi / 180 * cos(a.lat * .pi / 180)
        return atan2(east, north)
    }
}
