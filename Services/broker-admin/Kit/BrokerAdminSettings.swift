import SafeWalkService

/// `broker-admin`'s own settings, beyond the shared ones in ``ServiceConfiguration``.
public struct BrokerAdminSettings: Sendable {
    /// `SAFEWALK_ADMIN_PLUGIN_TIMEOUT` (seconds, default 5): how long to wait for the plugin's
    /// answer before a command is answered `brokerError`.
    public var pluginTimeout: Duration
    /// `SAFEWALK_ADMIN_RETAINED_QUIET` (seconds, default 0.3): an erasure collects the walker's
    /// retained OwnTracks messages until nothing has arrived for this long.
    public var retainedQuiet: Duration

    public init(pluginTimeout: Duration = .seconds(5), retainedQuiet: Duration = .milliseconds(300)) {
        self.pluginTimeout = pluginTimeout
        self.retainedQuiet = retainedQuiet
    }

    public init(environment env: EnvironmentReader) throws(ConfigurationError) {
        self.init(
            pluginTimeout: .seconds(try env.seconds("SAFEWALK_ADMIN_PLUGIN_TIMEOUT", default: 5)),
            retainedQuiet: .seconds(try env.seconds("SAFEWALK_ADMIN_RETAINED_QUIET", default: 0.3)))
    }
}
