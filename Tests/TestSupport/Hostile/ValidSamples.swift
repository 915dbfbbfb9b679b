import Foundation
import SafeWalkCore

/// One valid message per input kind (two for actions, whose fields depend on the action), the
/// seeds every mutation starts from. A unit test proves each is accepted by every service that
/// reads its topic: a seed that was already invalid would make every "hostile" case trivial.
public struct ValidSamples: Sendable {
    public var walker: String
    public var now: EpochSeconds

    public init(walker: String, now: EpochSeconds) {
        self.walker = walker
        self.now = now
    }

    /// The JSON seeds of `kind` (presence is plain text: see ``presence``).
    public func json(_ kind: InputKind) -> [RawJSON] {
        let tst = RawJSON.number(now.rounded())
        switch kind {
        case .fix:
            return [
                .object([
                    "v": .number(1), "lat": .number(30.2849), "lon": .number(-97.7341), "tst": tst,
                    "acc": .number(5), "alt": .number(150.5), "vel": .number(1.2), "batt": .number(80),
                ])
            ]
        case .owntracks:
            // OwnTracks sends no `v`; its own extra fields (`tid`, `conn`) are ignored.
            return [
                .object([
                    "_type": .string("location"), "lat": .number(30.2849), "lon": .number(-97.7341), "tst": tst,
                    "acc": .number(12), "alt": .number(151), "vel": .number(4), "batt": .number(77),
                    "tid": .string("ph"), "conn": .string("w"),
                ])
            ]
        case .presence:
            return []
        case .reply:
            return [
                .object([
                    "v": .number(1), "text": .string("Almost at the library"), "quickReply": .bool(false), "tst": tst,
                ])
            ]
        case .action:
            return [
                .object([
                    "v": .number(1), "action": .string("startWalk"), "id": .string("act-walk-1"),
                    "destination": .string("PCL Library"), "minutes": .number(15),
                ]),
                .object([
                    "v": .number(1), "action": .string("panic"), "id": .string("act-panic-1"),
                    "level": .string("amber"),
                ]),
            ]
        case .position:
            return [
                .object([
                    "v": .number(1), "lat": .number(30.2849), "lon": .number(-97.7341), "tst": tst, "acc": .number(5),
                    "moved": .bool(true), "lastMovedAt": tst,
                ])
            ]
        case .prompt:
            return [
                .object([
                    "v": .number(1), "id": .string("prompt-1"), "at": tst, "replyBy": .number(now.rounded() + 120),
                ])
            ]
        case .escalation:
            return [
                .object([
                    "v": .number(1), "id": .string("esc-hostile-1"), "walker": .string(walker),
                    "reason": .string("noReply"), "level": .string("amber"), "at": tst,
                    "lastFix": .object([
                        "lat": .number(30.2849), "lon": .number(-97.7341), "acc": .number(5), "tst": tst,
                    ]),
                    "walk": .object(["destination": .string("PCL Library"), "eta": .number(now.rounded() + 600)]),
                ])
            ]
        case .contacts:
            return [
                .object([
                    "v": .number(1),
                    "contacts": .array([
                        .object([
                            "id": .string("c-1"), "name": .string("Mum"), "phone": .string("+15125550100"),
                            "dialable": .bool(true),
                        ]),
                        .object([
                            "id": .string("c-2"), "name": .string("Sam"), "phone": .string("call me"),
                            "dialable": .bool(false),
                            "reason": .string("containsLetters"),
                        ]),
                    ]),
                ])
            ]
        case .contactsAdd:
            return [.object(["v": .number(1), "name": .string("Mum"), "phone": .string("+1 512 555 0100")])]
        case .contactsRemove:
            return [.object(["v": .number(1), "id": .string("c-123")])]
        }
    }

    /// The valid presence payloads (a device's Last Will and its birth message).
    public static let presence = ["online", "offline"]

    /// Every valid seed of `kind` as bytes.
    public func payloads(_ kind: InputKind) -> [Data] {
        kind == .presence ? Self.presence.map { Data($0.utf8) } : json(kind).map(\.data)
    }
}
