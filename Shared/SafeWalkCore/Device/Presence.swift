import Foundation

/// A device's or service's liveness: bare words (not JSON), as published retained on
/// `{w}/presence` (Last Will `offline`) and `_service/{name}`.
public enum Presence: String, CaseIterable, Hashable, Sendable, Codable {
    case online, offline
    /// Only a walker's device says it, on `{w}/presence`: the walker's web app went to the
    /// background (the browser stops its location there). The device is still there; its
    /// location is paused until its next fix. No service says it about itself.
    case background

    /// Parses a payload. Surrounding whitespace (a trailing newline from a shell tool) is
    /// tolerated; anything else, including other casing, is not a presence.
    public init?(payload: Data) {
        guard let text = String(data: payload, encoding: .utf8) else { return nil }
        self.init(rawValue: text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The payload to publish: the bare word in UTF-8.
    public var payload: Data { Data(rawValue.utf8) }
}
