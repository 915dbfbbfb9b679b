import Foundation

/// The walker's answer on `{w}/reply`. Any reply answers a pending check-in; the text is
/// also looked up in the ``QuickReply`` catalogue whether or not `quickReply` is set, so a
/// typed "I need help 🚨" is never treated as chit-chat.
public struct Reply: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    public var text: String
    /// True when the walker tapped a quick-reply chip rather than typing.
    public var quickReply: Bool?
    public var tst: EpochSeconds

    public init(text: String, quickReply: Bool? = nil, tst: EpochSeconds) {
        self.text = text
        self.quickReply = quickReply
        self.tst = tst
    }
}

/// A check-in is due (`{w}/prompt`, watchdog → chat).
public struct CheckInPrompt: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    /// Unique per prompt, so chat can drop a redelivered one.
    public var id: String
    /// When the prompt was issued.
    public var at: EpochSeconds
    /// When an unanswered prompt escalates (`noReply`).
    public var replyBy: EpochSeconds

    public init(id: String, at: EpochSeconds, replyBy: EpochSeconds) {
        self.id = id
        self.at = at
        self.replyBy = replyBy
    }

    /// This prompt's payload, as ``SafeWalkJSON/encode(_:)`` writes it, without Foundation's
    /// encoder (``JSONObjectWriter``): the watchdog writes one per check-in of every walker.
    public func jsonPayload() throws -> Data {
        var w = JSONObjectWriter()
        try w.number("at", at)
        w.string("id", id)
        try w.number("replyBy", replyBy)
        w.integer("v", SchemaVersion.current)
        return w.data()
    }
}

/// A companion message to the device (`{w}/chat`). `isUser` is always false on this topic;
/// it exists so the app can render the message without guessing.
public struct ChatMessage: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    public var id: String
    public var text: String
    public var isUser: Bool
    public var tst: EpochSeconds

    public init(id: String, text: String, tst: EpochSeconds, isUser: Bool = false) {
        self.id = id
        self.text = text
        self.isUser = isUser
        self.tst = tst
    }

    /// This message's payload, as ``SafeWalkJSON/encode(_:)`` writes it, without Foundation's
    /// encoder (``JSONObjectWriter``): companion-chat writes one for every prompt and reply.
    public func jsonPayload() throws -> Data {
        var w = JSONObjectWriter()
        w.string("id", id)
        w.bool("isUser", isUser)
        w.string("text", text)
        try w.number("tst", tst)
        w.integer("v", SchemaVersion.current)
        return w.data()
    }
}
