import Foundation
import SafeWalkCore

/// The bytes and topic of an ``OwnTracksInstruction`` for the OwnTracks app. Only the fields a
/// command changes: a `setConfiguration` carrying host, port or credentials would rewrite the
/// app's connection (and put secrets in a message any of the walker's devices may read).
enum OwnTracksCommand {
    /// `owntracks/{user}/{device}/cmd`, where the app listens for commands. Built from the device's
    /// own topic: the shared ``Topic`` has no kind for commands (location-ingest is their only
    /// writer), and ``TopicFilter/owntracksCommands(of:)`` is the matching filter.
    static func topic(user: WalkerID, device: DeviceName) -> String {
        Topic.owntracks(user: user, device: device).name() + "/cmd"
    }

    /// `{"_type":"cmd","action":"setConfiguration","configuration":{"_type":"configuration","monitoring":2}}`
    /// or `{"_type":"cmd","action":"reportLocation"}`.
    static func payload(_ instruction: OwnTracksInstruction) throws -> Data {
        let command: Command
        switch instruction {
        case .setMonitoring(let mode):
            command = Command(action: "setConfiguration", configuration: Configuration(monitoring: mode))
        case .reportLocation:
            command = Command(action: "reportLocation", configuration: nil)
        }
        return try encoder.encode(command)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// OwnTracks' command envelope (not a SafeWalk payload: no `v`).
    private struct Command: Encodable {
        let type = "cmd"
        let action: String
        let configuration: Configuration?

        enum CodingKeys: String, CodingKey {
            case type = "_type"
            case action, configuration
        }
    }

    private struct Configuration: Encodable {
        let type = "configuration"
        let monitoring: Int

        enum CodingKeys: String, CodingKey {
            case type = "_type"
            case monitoring
        }
    }
}
