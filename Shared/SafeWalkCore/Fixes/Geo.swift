import Foundation

/// A point on Earth in degrees.
public struct Coordinate: Codable, Hashable, Sendable {
    public var lat: Double
    public var lon: Double

    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }

    /// Whether this is a place on Earth: finite, latitude in -90...90, longitude in -180...180
    /// (the ranges ``FixValidator`` holds fixes to). Out of range, ``Geo/distance(_:_:)`` would
    /// still answer, with a number that means nothing.
    public var isOnEarth: Bool {
        lat.isFinite && lon.isFinite && (-90.0...90.0).contains(lat) && (-180.0...180.0).contains(lon)
    }
}

/// Great-circle geometry on a spherical Earth.
public enum Geo {
    /// The IUGG mean Earth radius, 6 371 008.8 m. The spherical model errs by under 0.5 %,
    /// far below GPS noise at the 5 m scale that matters here.
    public static let earthRadiusMeters = 6_371_008.8

    /// Haversine distance in metres. NaN if either point is not finite (callers validate first).
    public static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        let toRadians = Double.pi / 180
        let phi1 = a.lat * toRadians
        let phi2 = b.lat * toRadians
        let dPhi = (b.lat - a.lat) * toRadians
        let dLambda = (b.lon - a.lon) * toRadians
        let s = sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
        // Rounding can push s a hair outside [0, 1]; asin would then return NaN.
        let clamped = min(max(s, 0), 1)
        return 2 * earthRadiusMeters * asin(clamped.squareRoot())
    }
}
