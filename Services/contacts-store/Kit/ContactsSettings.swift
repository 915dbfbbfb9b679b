import SafeWalkService

extension ContactRules {
    /// Reads `SAFEWALK_CONTACTS_LIMIT` (default 20, 1...50: the notifier refuses lists over 50).
    public init(configuration: ServiceConfiguration) throws(ConfigurationError) {
        self.init(limit: try configuration.environment.integer("SAFEWALK_CONTACTS_LIMIT", default: 20, in: 1...50))
    }
}
