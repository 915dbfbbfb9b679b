import SafeWalkCore
import SafeWalkService

/// The monitoring desk's settings (docs/services/web.md, "The monitoring desk").
public struct DeskSettings: Sendable {
    /// `SAFEWALK_DESK_NAME` ["the campus desk"]: the desk as walkers and contacts read it.
    public var name = DeskName.default
    /// How long an acknowledgement or a close may wait for the notifier's or the watchdog's answer.
    public var answerWait: Duration = .seconds(5)
    /// `SAFEWALK_DESK_BOARD_INTERVAL` [0.25 s]: at most one `board` event per stream this often
    /// (a busy desk's streams carry the latest state, not every change).
    public var boardInterval: Duration = .milliseconds(250)
    /// A `: keep-alive` comment this often on the desk's streams (the session is checked as often).
    public var keepAlive: Duration = .seconds(15)
    /// Streams one operator's session may hold open.
    public var maxStreams = 16

    public init() {}

    public init(environment env: EnvironmentReader) throws(ConfigurationError) {
        name = DeskName.from(env.string(DeskName.environmentKey))
        boardInterval = .milliseconds(
            Int(try env.seconds("SAFEWALK_DESK_BOARD_INTERVAL", default: 0.25) * 1_000))
    }
}
