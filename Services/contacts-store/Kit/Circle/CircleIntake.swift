import Foundation
import SafeWalkCore

/// Reads `{w}/circle/cmd`: the walker from the topic, the command from a hostile payload. Names
/// are trimmed here, once, so `"bob "` is bob (the seed app's trailing-space bug).
enum CircleIntake {
    struct Command: Hashable, Sendable {
        var id: String
        var op: CircleCommand.Operation
        /// The other user as sent, trimmed; nil when absent or blank.
        var user: String?
        var on: Bool?
    }

    enum Outcome: Hashable, Sendable {
        case command(WalkerID, Command)
        /// Answered with `invalidCommand`; `id` and `op` when they could be read.
        case unreadable(WalkerID, id: String?, op: String?, why: String)
        case invalidTopic
    }

    static let maxIDLength = 128
    /// Longer than any walker id can be, so a long name is "unknown", not cut short to someone's.
    static let maxUserLength = 200

    static func read(topic: String, payload: Data, prefix: String) -> Outcome {
        guard let parsed = Topic.parse(topic, prefix: prefix), parsed.kind == .circleCommand,
            let walker = parsed.walker
        else { return .invalidTopic }
        guard let wire = try? JSONDecoder().decode(Wire.self, from: payload) else {
            return .unreadable(walker, id: nil, op: nil, why: "The command is not a JSON object.")
        }
        let id = wire.id.flatMap(validID)
        guard wire.v == SchemaVersion.current else {
            return .unreadable(walker, id: id, op: wire.op, why: "The command needs \"v\": 1.")
        }
        guard let id else {
            return .unreadable(
                walker, id: nil, op: wire.op, why: "The command needs an id of 1 to 128 printable characters.")
        }
        guard let op = wire.op, let operation = CircleCommand.Operation(rawValue: op) else {
            return .unreadable(walker, id: id, op: wire.op, why: "Unknown operation.")
        }
        guard !wire.userIsMalformed, (wire.user?.count ?? 0) <= maxUserLength else {
            return .unreadable(walker, id: id, op: op, why: "\"user\" must be a name.")
        }
        guard !wire.onIsMalformed else {
            return .unreadable(walker, id: id, op: op, why: "\"on\" must be true or false.")
        }
        let trimmed = wire.user?.trimmingCharacters(in: .whitespacesAndNewlines)
        return .command(
            walker, Command(id: id, op: operation, user: trimmed?.isEmpty == false ? trimmed : nil, on: wire.on))
    }

    /// Every field optional and read on its own, so one bad field names itself instead of
    /// failing the whole command, and the answer still carries the `id`.
    private struct Wire: Decodable {
        var v: Int?
        var id: String?
        var op: String?
        var user: String?
        var userIsMalformed = false
        var on: Bool?
        var onIsMalformed = false

        private enum Key: String, CodingKey { case v, id, op, user, on }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            v = try? container.decodeIfPresent(Int.self, forKey: .v)
            id = try? container.decodeIfPresent(String.self, forKey: .id)
            op = try? container.decodeIfPresent(String.self, forKey: .op)
            if container.contains(.user), (try? container.decodeNil(forKey: .user)) != true {
                user = try? container.decode(String.self, forKey: .user)
                userIsMalformed = user == nil
            }
            if container.contains(.on), (try? container.decodeNil(forKey: .on)) != true {
                on = try? container.decode(Bool.self, forKey: .on)
                onIsMalformed = on == nil
            }
        }
    }

    private static func validID(_ id: String) -> String? {
        guard (1...maxIDLength).contains(id.utf8.count), id.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            return nil
        }
        return id
    }
}
