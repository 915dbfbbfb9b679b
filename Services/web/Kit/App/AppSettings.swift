import SafeWalkService

/// The app API's settings (docs/services/web.md, "The walker's app API").
public struct AppSettings: Sendable {
    /// `SAFEWALK_APP_PRESENCE_GRACE` [30 s]: how long after a session's last event stream ends
    /// web waits for one to come back before it publishes `offline` for the walker.
    public var presenceGrace: Duration = .seconds(30)
    /// `SAFEWALK_APP_MAX_STREAMS` [8]: event streams one session may hold open (one per tab).
    public var maxStreams = 8
    /// How long a publish may wait for the broker's PUBACK (and the connection) before 503.
    public var publishWait: Duration = .seconds(5)
    /// `SAFEWALK_APP_KEEP_ALIVE` [15 s]: a `: keep-alive` comment this often on every stream; the
    /// session is checked as often, and a tab that went away is noticed by then at the latest.
    public var keepAlive: Duration = .seconds(15)

    public init() {}

    public init(environment env: EnvironmentReader) throws(ConfigurationError) {
        presenceGrace = .seconds(try env.seconds("SAFEWALK_APP_PRESENCE_GRACE", default: 30))
        maxStreams = try env.integer("SAFEWALK_APP_MAX_STREAMS", default: maxStreams, in: 1...64)
        keepAlive = .seconds(try env.seconds("SAFEWALK_APP_KEEP_ALIVE", default: 15))
    }
}
