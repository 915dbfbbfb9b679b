import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport

/// What the stories add to the shared stack: their walkers, thresholds shortened by configuration
/// so a story takes seconds (never by sleeping through them), and phones that log in the way the
/// app does.
extension ServiceStack {
    static let storyWalkers = [
        "alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi",
        "ivan", "judy", "kate", "liam", "mia", "noah", "olga",
    ]

    /// Story-length thresholds (seconds).
    static let storyThresholds = [
        "SAFEWALK_CHECKIN_INTERVAL": "1", "SAFEWALK_NO_REPLY_AFTER": "2", "SAFEWALK_NO_MOVEMENT_AFTER": "3",
        "SAFEWALK_OFFLINE_GRACE": "1", "SAFEWALK_MOVEMENT_METERS": "5", "SAFEWALK_HOLD_HEARTBEAT": "1",
    ]

    /// The stack with every story walker and the story thresholds; `environment` overrides them.
    static func startForStories(environment: [String: String] = [:]) async throws -> ServiceStack {
        try await start(walkers: storyWalkers, environment: storyThresholds.merging(environment) { $1 })
    }

    /// A walker's phone, logged in as the walker, with its Last Will on its presence topic.
    func phone(_ walker: String, lastWill: Bool = true) async throws -> MQTTClient {
        let will = MQTTMessage(topic: "safewalk/\(walker)/presence", payload: Presence.offline.payload, retain: true)
        return try await client(as: walker, role: "phone", lastWill: lastWill ? will : nil)
    }
}
