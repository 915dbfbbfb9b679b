import SafeWalkService

/// The circle's settings (docs/services/contacts-store.md).
struct CircleSettings: Hashable, Sendable {
    /// A check-in request unanswered this long may show the asker a last known position.
    var checkInRequestTimeout: Double = 300
    /// How long "home safe" shows, in seconds.
    var homeSafeFor: Double = 12 * 3600
    /// Events kept per inbox, newest kept.
    var inboxLimit = 100
    /// How long an inbox event is kept, in seconds.
    var inboxKeep: Double = 7 * 86_400

    init() {}

    /// `SAFEWALK_CHECKIN_REQUEST_TIMEOUT` (seconds, 300), `SAFEWALK_HOME_SAFE_HOURS` (12),
    /// `SAFEWALK_INBOX_LIMIT` (100, 1...1000), `SAFEWALK_INBOX_DAYS` (7, 1...90).
    init(configuration: ServiceConfiguration) throws(ConfigurationError) {
        let environment = configuration.environment
        checkInRequestTimeout = try environment.seconds("SAFEWALK_CHECKIN_REQUEST_TIMEOUT", default: 300)
        homeSafeFor = try environment.positiveNumber("SAFEWALK_HOME_SAFE_HOURS", default: 12) * 3600
        inboxLimit = try environment.integer("SAFEWALK_INBOX_LIMIT", default: 100, in: 1...1000)
        inboxKeep = Double(try environment.integer("SAFEWALK_INBOX_DAYS", default: 7, in: 1...90)) * 86_400
    }
}
