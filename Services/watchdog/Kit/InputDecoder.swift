import Foundation
import SafeWalkCore
import SafeWalkMQTT

/// Why an input was refused: a stable code for the rejection report, and the topic kind and
/// walker when they were readable.
public struct InputRejection: Error, Hashable, Sendable {
    public var code: String
    public var topicKind: Topic.Kind
    public var walker: WalkerID?
    /// The action id, when one was readable, so the device's answer can name it.
    public var id: String?
}

/// What to do with one message from the broker.
public enum DecodedInput: Hashable, Sendable {
    case event(WalkerID, WatchEvent)
    /// Nothing to do, and nothing wrong (an empty retained payload clearing a topic).
    case ignored
}

/// Validates everything the watchdog reads: the walker comes from the topic (never from the
/// payload), the payload must fit the size limit, carry `"v": 1` and decode to its type.
/// Except a cry for help: on `action` (``CryForHelp``) and `reply` (``ReplyIntake``, which asks
/// ``CryForHelp`` first), it is read generously.
public struct InputDecoder: Sendable {
    public var prefix: String
    public var maxBytes: Int

    public init(prefix: String, maxBytes: Int = 16 * 1024) {
        self.prefix = prefix
        self.maxBytes = maxBytes
    }

    public func decode(_ message: MQTTMessage, now: EpochSeconds) throws(InputRejection) -> DecodedInput {
        guard let topic = Topic.parse(message.topic, prefix: prefix), let walker = topic.walker else {
            // Matched `{p}/+/{kind}` but did not parse: the walker level is not a valid id.
            let underPrefix = message.topic.hasPrefix(prefix + "/")
            let kind =
                underPrefix
                ? message.topic.split(separator: "/").last.flatMap { Topic.Kind(.walker, path: String($0)) } : nil
            throw InputRejection(
                code: kind == nil ? "unexpected_topic" : "invalid_walker", topicKind: kind ?? .rejected, walker: nil)
        }
        let kind = topic.kind
        func reject(_ code: String) -> InputRejection { InputRejection(code: code, topicKind: kind, walker: walker) }
        if message.payload.count > maxBytes { throw reject("too_large") }
        switch kind {
        case .presence:
            if message.payload.isEmpty { return .ignored }
            guard let presence = Presence(payload: message.payload) else { throw reject("invalid_presence") }
            return .event(walker, .presence(presence))
        case .reply:
            // A reply has no answer topic: a cry's warnings are only for actions.
            switch ReplyIntake.read(message.payload, maxBytes: maxBytes) {
            case .success(.cryForHelp): return .event(walker, .reply(text: QuickReply.needHelp.text))
            case .success(.reply(let reply)): return .event(walker, .reply(text: reply.text))
            case .failure(let refusal): throw reject(refusal.code)
            }
        case .action:
            if let cry = CryForHelp.read(message.payload, on: .action) {
                return .event(walker, .action(cry.action, ActionCheck(warnings: cry.warnings)))
            }
            let action: Action
            do {
                action = try decodeJSON(Action.self, message.payload, reject)
            } catch {
                var rejection = error
                rejection.id = Self.readableID(message.payload)
                throw rejection
            }
            guard CryForHelp.usableID(action.id) != nil else { throw reject("invalid_action_id") }
            return .event(walker, .action(action))
        case .position:
            if message.payload.isEmpty { return .ignored }
            let update: PositionUpdate
            do {
                update = try PositionUpdate.decode(message.payload, maxBytes: maxBytes)
            } catch {
                throw reject(error.code)
            }
            // A retained position may be old; only its values are checked, not its age.
            let policy = FixPolicy(maxBytes: maxBytes, maxAge: .infinity, maxFutureSkew: 60)
            do {
                try FixValidator.validate(update.fix, now: now, policy: policy)
            } catch {
                throw reject(error.code)
            }
            guard update.lastMovedAt.isFinite else { throw reject("non_finite") }
            return .event(walker, .position(update))
        default:
            throw reject("unexpected_topic")
        }
    }

    /// The `id` of a refused action, if it is a short string, so the device can match the answer.
    static func readableID(_ payload: Data) -> String? {
        struct Probe: Decodable { var id: String }
        return CryForHelp.usableID(try? SafeWalkJSON.decode(Probe.self, from: payload).id)
    }

    private func decodeJSON<T: Decodable>(
        _ type: T.Type, _ data: Data,
        _ reject: (String) -> InputRejection
    ) throws(InputRejection) -> T {
        do {
            return try SafeWalkJSON.decode(type, from: data, maxBytes: maxBytes)
        } catch {
            throw reject(error.code)
        }
    }
}
