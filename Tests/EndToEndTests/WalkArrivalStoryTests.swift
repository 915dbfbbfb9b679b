import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// Issue 19, item 7, on the real executables and the secured broker: a walk that knows where it
/// is going ends by itself at the door, and the services hear of it on `_arrivals/{w}`.
@Suite("End to end: walks that know where they are going", .serialized)
struct WalkArrivalStoryTests {
    @Test func twoFixesAtTheDoorEndTheWalkAndTheOperatorSeesTheArrival() async throws {
        let world = try await StoryWorld.start()
        let erin = try await Walker("erin", on: world.stack)
        // The operator login reads `_arrivals/+` (mosquitto/acl); the walker's own phone cannot.
        let arrivals = try await world.watch("erin", .arrival)
        let statuses = try await world.watch("erin", .status)
        let overheard = try await erin.phone.subscribe(try erin.topic(.arrival), qos: .atLeastOnce)
        try await erin.keepAnswering()
        // Home is 30 m north of where erin stands; her fixes are 5 m accurate: 35 m, at the door.
        let home = Coordinate(lat: 30.2849 + 30 / 111_195, lon: -97.7341)
        let start = Action(
            id: UUID().uuidString, kind: .startWalk(destination: "Home", minutes: 20), to: home)
        try await erin.phone.publish(try erin.topic(.action), payload: SafeWalkJSON.encode(start))
        let walking = try await statuses.decoded(WatchStatus.self, where: { $0.walk?.to != nil })
        #expect(walking.first?.walk?.to == home)

        // Two fixes, further apart than location-ingest's 0.5 s position interval, so the watchdog
        // sees two positions rather than one merged one.
        try await erin.sendFix()
        try await Task.sleep(for: .milliseconds(800))
        try await erin.sendFix()

        let arrival = try #require(try await arrivals.decoded(Arrival.self).first)
        #expect(arrival.walker == (try WalkerID("erin")))
        #expect(arrival.automatic)
        #expect(arrival.destination == "Home")
        let ended = try await statuses.decoded(WatchStatus.self, where: { !$0.watching })
        #expect(ended.first?.state == .safe)
        #expect(ended.first?.walk == nil)
        try await Task.sleep(for: .milliseconds(300))
        #expect(await overheard.drained().isEmpty, "the walker's own login never reads _arrivals/{w}")
        await erin.leave(); await world.stop()
    }
}
