import SafeWalkCore

/// The same rules as scripts/add-user.sh, checked before anything runs so mistakes get a clear message.
public enum UserNameRule {
    /// The service users of mosquitto/acl (a test keeps the two in step).
    public static let serviceUsers = [
        "location-ingest", "watchdog", "companion-chat", "notifier",
        "contacts-store", "channel-example", "operator", "web", "broker-admin",
    ]

    public static func validate(_ name: String, service: Bool) throws(CLIError) {
        if service {
            guard serviceUsers.contains(name) else {
                throw .invalidInput(
                    "'\(name)' is not a service user in mosquitto/acl: \(serviceUsers.joined(separator: ", "))")
            }
            return
        }
        // A walker's username becomes a topic level and the ACL's %u: the walker id rule applies.
        do {
            try WalkerID.validate(name)
        } catch {
            throw .invalidInput("'\(name)' is not a walker id ([A-Za-z0-9_-]{1,64}, not _service/_rejected): \(error)")
        }
        guard !serviceUsers.contains(name) else { throw .invalidInput("'\(name)' is a service user; use --service") }
    }
}
