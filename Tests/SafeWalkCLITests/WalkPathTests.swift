import Foundation
import SafeWalkCore
import Testing

@testable import SafeWalkCLI

@Suite struct WalkPathTests {
    @Test(arguments: [1, 2, 42, 1234] as [UInt64])
    func randomWalkMovesMoreThan5mEachFixAndStaysNearTheStart(seed: UInt64) {
        var walk = RandomWalk(seed: seed)
        var previous = walk.next()
        #expect(previous == RandomWalk.utAustin)
        for _ in 0..<2_000 {
            let here = walk.next()
            let step = Geo.distance(previous, here)
            #expect(step > 5 && step <= 15.01, "step \(step) m")
            #expect(Geo.distance(RandomWalk.utAustin, here) <= 400 + 15, "strayed to \(here)")
            previous = here
        }
    }

    @Test func randomWalkActuallyWandersAndRepeatsForASeed() {
        var a = RandomWalk(seed: 7)
        var b = RandomWalk(seed: 7)
        let pathA = (0..<300).map { _ in a.next() }
        #expect(pathA == (0..<300).map { _ in b.next() })
        let farthest = pathA.map { Geo.distance(RandomWalk.utAustin, $0) }.max() ?? 0
        #expect(farthest > 100, "a 300-step walk should get somewhere, got \(farthest) m")
    }

    @Test func routeIsWalkedInStepsThereAndBack() {
        let a = Coordinate(lat: 30.2849, lon: -97.7341)
        let b = Coordinate(lat: 30.2859, lon: -97.7341)  // ~111 m north
        var path = RoutePath(waypoints: [a, a, b], stepMeters: 12)
        #expect(path.points.count == 10)  // 9 pieces of ~12.3 m
        var previous = path.next()
        #expect(previous == a)
        var visited = [previous]
        for _ in 0..<20 {
            let here = path.next()
            #expect(Geo.distance(previous, here) > 12)
            visited.append(here)
            previous = here
        }
        #expect(visited[9] == b)
        #expect(visited[18] == a)  // back at the start, then out again
        #expect(visited[19] == path.points[1])
    }

    @Test func routeFilesInJSONAndCSV() throws {
        let json = try RouteFile.parse(
            #"[{"lat": 30.2849, "lon": -97.7341, "note": "Tower"}, {"lat": 30.2862, "lon": -97.7394}]"#)
        #expect(json == [Coordinate(lat: 30.2849, lon: -97.7341), Coordinate(lat: 30.2862, lon: -97.7394)])
        let csv = try RouteFile.parse("# UT Tower to PCL\nlat,lon\n30.2849, -97.7341\n\n30.2827,-97.7382\n")
        #expect(csv == [Coordinate(lat: 30.2849, lon: -97.7341), Coordinate(lat: 30.2827, lon: -97.7382)])
    }

    @Test(arguments: [
        "", "30.1,-97.1", "[{\"lat\": 1}]", "30.1,-97.1\n30.1,-97.1", "30,-97\n91,0", "30,-97\nnorth,east", "{}",
    ])
    func badRouteFilesAreRefusedWithAReason(text: String) {
        #expect(throws: CLIError.self) { try RouteFile.parse(text) }
    }
}
