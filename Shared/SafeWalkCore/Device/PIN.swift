/// A cancel or duress PIN as the device sent it: 4 to 12 ASCII digits.
///
/// It exists only in memory between the decoder and the PIN check: the watchdog stores salted
/// hashes, never this. Its `description` is redacted so a log line or a test failure that
/// prints an action can never show it.
public struct PIN: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The digits, as UTF-8 bytes: what the hash is computed over.
    public let digits: [UInt8]

    public static let lengths = 4...12

    /// Nil unless `text` is 4–12 ASCII digits (no spaces, no signs).
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard Self.lengths.contains(bytes.count), bytes.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        digits = bytes
    }

    public var description: String { "<pin>" }
    public var debugDescription: String { "<pin>" }
}

/// What a `setPins` action asks for: a new cancel PIN and, optionally, a duress PIN that must
/// differ from it.
public struct PINChange: Hashable, Sendable {
    public var cancel: PIN
    public var duress: PIN?

    public init(cancel: PIN, duress: PIN?) {
        self.cancel = cancel
        self.duress = duress
    }
}
