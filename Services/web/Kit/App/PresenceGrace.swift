/// When a session's broker connection may close, and whether it says `offline` first (a Last
/// Will for browsers, which cannot leave one). Pure: the shell sleeps the grace and then asks
/// ``expire(_:)`` with the token it was given; any stream opened meanwhile makes that token stale.
public struct PresenceGrace: Hashable, Sendable {
    /// Event streams open now.
    public private(set) var streams = 0
    /// Whether a stream was ever open on this connection (a publish alone opens none).
    public private(set) var hadStream = false
    private var generation = 0

    public enum Expiry: Hashable, Sendable {
        /// The last stream went and none came back: publish `offline` (retained), then close.
        case offlineThenClose
        /// Only publishes used the connection: close it without a word.
        case close
    }

    public init() {}

    /// A stream opened: any grace running is void.
    public mutating func opened() {
        streams += 1
        hadStream = true
        generation += 1
    }

    /// A stream ended. Returns the token of a grace to start when it was the last one.
    public mutating func closed() -> Int? {
        streams = max(0, streams - 1)
        return idle()
    }

    /// The connection has no stream (after a publish, or the last stream's end): the token of a
    /// grace to start, or nil while streams are open.
    public mutating func idle() -> Int? {
        guard streams == 0 else { return nil }
        generation += 1
        return generation
    }

    /// The grace started with `token` ran out: what to do, or nil when a stream (or a later
    /// grace) has taken over since.
    public func expire(_ token: Int) -> Expiry? {
        guard token == generation, streams == 0 else { return nil }
        return hadStream ? .offlineThenClose : .close
    }
}
