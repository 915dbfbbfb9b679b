/// Marks an ``Identifier`` as a walker id.
public enum WalkerKind: IdentifierKind {
    public static var label: String { "walker id" }
    /// Service and system topics (`{prefix}/_service/{name}`, `{prefix}/_rejected/{service}`,
    /// `{prefix}/_accounts/…`, `{prefix}/_incidents/{w}`) share the shape of walker topics, so a
    /// walker may not take their first levels.
    public static var reserved: Set<String> { Topic.Kind.serviceLevels }
}

/// Marks an ``Identifier`` as a service name.
public enum ServiceKind: IdentifierKind {
    public static var label: String { "service name" }
    public static var reserved: Set<String> { [] }
}

/// Marks an ``Identifier`` as an OwnTracks device name (the last level of `owntracks/{user}/{device}`).
public enum DeviceKind: IdentifierKind {
    public static var label: String { "device name" }
    public static var reserved: Set<String> { [] }
}

/// A walker: `[A-Za-z0-9_-]{1,64}`, never `_service`, `_rejected`, `_accounts` or `_incidents`.
public typealias WalkerID = Identifier<WalkerKind>
/// A service's name in `_service/{name}` and `_rejected/{name}`.
public typealias ServiceName = Identifier<ServiceKind>
/// An OwnTracks device name. Devices named outside `[A-Za-z0-9_-]{1,64}` are not accepted.
public typealias DeviceName = Identifier<DeviceKind>

extension Identifier where Kind == ServiceKind {
    /// `location-ingest`
    public static let locationIngest = ServiceName(trusted: "location-ingest")
    /// `watchdog`
    public static let watchdog = ServiceName(trusted: "watchdog")
    /// `companion-chat`
    public static let companionChat = ServiceName(trusted: "companion-chat")
    /// `notifier`
    public static let notifier = ServiceName(trusted: "notifier")
    /// `contacts-store`
    public static let contactsStore = ServiceName(trusted: "contacts-store")
    /// `broker-admin`: the dynamic-security plugin's admin, which makes walkers' broker logins.
    public static let brokerAdmin = ServiceName(trusted: "broker-admin")
    /// `web`
    public static let web = ServiceName(trusted: "web")

    /// The services that run one instance per partition of the walkers on a cluster
    /// (``WalkerPartition``): the others are one instance for every walker. The notifier's
    /// instances read every notifier input and each acts for its own walkers (`NotifierShare`).
    public static let partitioned: Set<ServiceName> = [.watchdog, .companionChat, .locationIngest, .notifier]
}
