import Foundation
import SafeWalkCore
import Testing

@Suite struct GeoTests {
    @Test func aPointIsZeroMetresFromItself() {
        #expect(Geo.distance(austin, austin) == 0)
    }

    @Test func oneDegreeOfLatitudeIsAnArcOfTheMeanRadius() {
        let d = Geo.distance(Coordinate(lat: 0, lon: 0), Coordinate(lat: 1, lon: 0))
        #expect(abs(d - 111_195.08) < 0.01)
    }

    @Test func aQuarterMeridianIsAQuarterCircumference() {
        let d = Geo.distance(Coordinate(lat: 0, lon: 0), Coordinate(lat: 90, lon: 0))
        #expect(abs(d - Geo.earthRadiusMeters * .pi / 2) < 1e-6)
    }

    @Test func antipodesAreHalfACircumferenceNotNaN() {
        let d = Geo.distance(Coordinate(lat: 0, lon: 0), Coordinate(lat: 0, lon: 180))
        #expect(abs(d - Geo.earthRadiusMeters * .pi) < 1e-6)
    }

    @Test func distanceIsSymmetricAndCrossesTheAntimeridian() {
        let east = Coordinate(lat: 10, lon: 179.99999)
        let west = Coordinate(lat: 10, lon: -179.99999)
        #expect(Geo.distance(east, west) == Geo.distance(west, east))
        #expect(Geo.distance(east, west) < 3)
    }

    @Test func knownCampusDistance() {
        // UT Tower to the Texas Capitol: about 1.27 km.
        let capitol = Coordinate(lat: 30.2747, lon: -97.7404)
        let d = Geo.distance(austin, capitol)
        #expect(d > 1_250 && d < 1_300)
    }

    @Test func theHelperPointIsTheRequestedDistanceAway() {
        #expect(abs(Geo.distance(austin, north(of: austin, meters: 5)) - 5) < 1e-6)
    }
}
