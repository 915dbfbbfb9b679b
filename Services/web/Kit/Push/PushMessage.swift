import Foundation

/// What one push says: the small JSON the service worker turns into a notification, and how the
/// push service should treat it (RFC 8030 §5.2 `TTL`, §5.3 `Urgency`).
public struct PushMessage: Hashable, Sendable {
    /// The body the page's service worker reads: `{"title","body","tag","url":"/"}`.
    public struct Body: Codable, Hashable, Sendable {
        public var title: String
        public var body: String
        /// A notification with the same tag replaces the one before (a second check-in replaces
        /// the first, not a stack of them).
        public var tag: String
        public var url = "/"
    }

    public enum Urgency: String, Sendable { case normal, high }

    /// Limits that keep a push far below one record (``WebPushEncryption/maxPlaintext``) and a
    /// lock screen readable.
    public static let maxTitle = 100
    public static let maxBody = 400

    public var body: Body
    public var urgency: Urgency
    /// Seconds the push service keeps it for a phone that is off; a check-in after its deadline
    /// is no use.
    public var ttl: Int

    public init(title: String, body: String, tag: String, urgency: Urgency, ttl: Int) {
        self.body = Body(title: Self.clip(title, Self.maxTitle), body: Self.clip(body, Self.maxBody), tag: tag)
        self.urgency = urgency
        self.ttl = max(0, ttl)
    }

    /// The bytes to encrypt.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(body)
    }

    static func clip(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}
