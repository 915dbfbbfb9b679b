import Foundation
import LocationIngestKit
import SafeWalkCore
import SafeWalkMQTT

/// Payloads and helpers shared by the location-ingest tests.
enum Fixtures {
    static let now: EpochSeconds = 1_750_000_000
    static let alice = try! WalkerID("alice")

    /// Our own fix format.
    static func fixJSON(lat: Double = 30.2849, lon: Double = -97.7341, tst: EpochSeconds = now, acc: Double = 3) -> Data
    {
        Data(#"{"v":1,"lat":\#(lat),"lon":\#(lon),"tst":\#(tst),"acc":\#(acc)}"#.utf8)
    }

    static func fixMessage(
        _ walker: String = "alice", lat: Double = 30.2849, lon: Double = -97.7341,
        tst: EpochSeconds = now, acc: Double = 3
    ) -> MQTTMessage {
        MQTTMessage(topic: "safewalk/\(walker)/fix", payload: fixJSON(lat: lat, lon: lon, tst: tst, acc: acc))
    }

    /// The `_type=location` example of the OwnTracks booklet (owntracks.org/booklet/tech/json),
    /// with its placeholders (`x.xxxxxx`, `nnn`) filled in and `tst` set to `tst` so that it
    /// falls inside the freshness window; every other field as documented.
    static func owntracksBookletLocation(tst: EpochSeconds) -> Data {
        Data(
            """
            {
                "_type" : "location",
                "acc"   : 75,
                "alt"   : 13,
                "batt"  : 87,
                "cog"   : 270,
                "desc"  : "sssss",
                "event" : "sssss",
                "lat"   : 30.284900,
                "lon"   : -97.734100,
                "rad"   : 100,
                "t"     : "x",
                "tid"   : "YY",
                "tst"   : \(Int(tst)),
                "vac"   : 10,
                "vel"   : 54,
                "p"     : 99,
                "conn" : "w"
            }
            """.utf8)
    }

    /// A point `meters` north of (lat, lon).
    static func north(of lat: Double, by meters: Double) -> Double {
        lat + meters / Geo.earthRadiusMeters * 180 / .pi
    }
}
