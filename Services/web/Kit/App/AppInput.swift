import Foundation
import SafeWalkCore

/// What `POST /v1/app/publish` asks web to publish: `{"kind": K, "payload": P}` read into the
/// topic kind and the bytes that go on `{prefix}/{w}/{K}`. Pure. web judges nothing of the
/// payload but that it is JSON: the services judge it (and a cry for help must get through
/// however malformed).
public struct AppInput: Hashable, Sendable {
    public var kind: Topic.Kind
    public var payload: Data

    /// The largest body: a fix, an action or a contact is a few hundred bytes.
    public static let maxBytes = 8 * 1024
    /// What `presence` may say (a bare word on the topic, as every device sends it).
    public static let presenceWords: Set<String> = ["online", "offline", "background"]

    public init(kind: Topic.Kind, payload: Data) {
        self.kind = kind
        self.payload = payload
    }

    /// Reads a body already known to be at most ``maxBytes`` of UTF-8.
    public static func read(_ body: Data) throws(APIError) -> AppInput {
        guard String(data: body, encoding: .utf8) != nil else { throw .invalidUTF8 }
        guard let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
            let fields = object as? [String: Any]
        else { throw .malformedJSON }
        guard let name = fields["kind"] else { throw .field(FieldError(.kind, .missing)) }
        guard let name = name as? String else { throw .field(FieldError(.kind, .wrongType)) }
        guard let kind = AppTopics.input(named: name) else { throw .field(FieldError(.kind, .invalid)) }
        guard let value = fields["payload"], !(value is NSNull) else { throw .field(FieldError(.payload, .missing)) }
        if kind == .presence {
            guard let word = value as? String else { throw .field(FieldError(.payload, .wrongType)) }
            guard presenceWords.contains(word) else { throw .field(FieldError(.payload, .invalid)) }
            return AppInput(kind: kind, payload: Data(word.utf8))
        }
        guard
            let bytes = try? JSONSerialization.data(
                withJSONObject: value, options: [.fragmentsAllowed, .withoutEscapingSlashes])
        else { throw .field(FieldError(.payload, .invalid)) }
        return AppInput(kind: kind, payload: bytes)
    }

    /// Presence is retained, as a device's Last Will is: the watchdog reads the last word after
    /// a restart. Every other input is an event.
    public var retained: Bool { kind == .presence }
}

/// One Server-Sent Event of `GET /v1/app/events`. Pure.
public enum AppEvent: Hashable, Sendable {
    /// A message on `{prefix}/{w}/{name}`, its bytes as the service sent them.
    case message(name: String, payload: Data)
    /// The bridge's state: `connected` (subscriptions in place) or `reconnecting`.
    case bridge(connected: Bool)
    /// A comment that keeps proxies from closing an idle stream.
    case keepAlive

    /// The event's text: `event: <name>` and one `data:` line per line of the payload (SSE
    /// ends a field at a line break), then a blank line.
    public var text: String {
        switch self {
        case .message(let name, let payload):
            let body = String(decoding: payload, as: UTF8.self)
            let lines = body.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            return "event: \(name)\n" + lines.map { "data: \($0)\n" }.joined() + "\n"
        case .bridge(let connected):
            return "event: bridge\ndata: {\"state\":\"\(connected ? "connected" : "reconnecting")\"}\n\n"
        case .keepAlive:
            return ": keep-alive\n\n"
        }
    }

    /// Kinds whose topics are retained: the last message of each is kept by the bridge and
    /// replayed to a stream that joins a connection already running.
    static func isRetained(_ name: String) -> Bool {
        ["status", "position", "contacts", "circle", "presence"].contains(name) || name.hasPrefix("shared/")
    }
}
