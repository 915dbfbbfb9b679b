import Foundation
import SafeWalkCore
import SafeWalkMQTT

/// Realistic OwnTracks traffic: `walkers` people walking (about 1.4 m/s, a fix every second,
/// GPS accuracy 3–25 m, noisy headings), published as the OwnTracks app does on
/// `owntracks/{user}/phone`, interleaved across walkers as they would arrive.
struct FixGenerator {
    var walkers: Int
    var fixesPerWalker: Int

    /// Every fix has `tst` in the last few minutes before `now`, inside ingest's 300 s window.
    /// Devices publish at QoS 1; the raw baseline is also measured at QoS 0 (issue 22).
    func messages(now: Double, seed: UInt64, qos: QoS = .atLeastOnce) -> [MQTTMessage] {
        var rng = SeededRandom(seed: seed)
        let base = now.rounded(.down) - Double(fixesPerWalker) - 40
        var positions = (0..<walkers).map { _ in
            (lat: 30.25 + rng.unit() * 0.06, lon: -97.77 + rng.unit() * 0.06, heading: rng.unit() * 2 * .pi)
        }
        var result: [MQTTMessage] = []
        result.reserveCapacity(walkers * fixesPerWalker)
        for k in 0..<fixesPerWalker {
            for w in 0..<walkers {
                var p = positions[w]
                p.heading += (rng.unit() - 0.5) * 0.6
                let metres = 1.0 + rng.unit() * 0.8
                p.lat += metres * cos(p.heading) / 111_195
                p.lon += metres * sin(p.heading) / (111_195 * cos(p.lat * .pi / 180))
                positions[w] = p
                let tst = Int(base) + k
                let payload = """
                    {"_type":"location","acc":\(3 + Int(rng.unit() * 22)),"alt":\(150 + Int(rng.unit() * 10)),\
                    "batt":\(90 - k / 10),"bs":1,"conn":"m","created_at":\(tst + 1),"lat":\(rounded(p.lat)),\
                    "lon":\(rounded(p.lon)),"m":2,"t":"u","tid":"\(w % 100)","tst":\(tst),"vac":4,"vel":\(4 + Int(rng.unit() * 3))}
                    """
                result.append(
                    MQTTMessage(topic: "owntracks/walker-\(w)/phone", payload: Data(payload.utf8), qos: qos))
            }
        }
        return result
    }

    private func rounded(_ degrees: Double) -> String { String(format: "%.6f", degrees) }
}
