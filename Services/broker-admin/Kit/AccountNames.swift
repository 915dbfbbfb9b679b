import SafeWalkCore

/// Which broker logins `broker-admin` may create or change, and the names it derives from a
/// walker id. Pure.
///
/// The plugin checks its own clients before Mosquitto's password file, so a dynamic-security
/// client named like a service user would take that user's login over (and a wrong password
/// would lock the real service out). `web` already refuses these names at sign-up; this is the
/// second check, for a `web` that has been taken over.
public enum AccountNames {
    /// The password-file users of `mosquitto/acl`, the two executables of issue 17, and names a
    /// person could mistake for the system. Compared ignoring case.
    public static let systemUsers: Set<String> = [
        "location-ingest", "watchdog", "companion-chat", "notifier", "contacts-store", "channel-example",
        "operator", "web", "broker-admin", "admin", "root",
    ]

    /// Why `user` may not be a walker's broker login, or nil when it may.
    public static func refusal(for user: WalkerID) -> AccountRefusal? {
        let name = user.rawValue
        if name.hasPrefix("_") || WalkerKind.reserved.contains(name) { return .reservedUser }
        if systemUsers.contains(name.lowercased()) { return .serviceUser }
        return nil
    }

    /// The OwnTracks device's login, `{w}.owntracks` (``AccountCommand/deviceUsername(for:)``).
    public static func device(of walker: WalkerID) -> String {
        AccountCommand.deviceUsername(for: walker)
    }

    /// The web app sessions' logins of `walker` among `usernames` (every client the plugin has).
    public static func sessions(of walker: WalkerID, among usernames: [String]) -> [String] {
        let prefix = AccountCommand.sessionUsernamePrefix(for: walker)
        return usernames.filter { name in
            name.hasPrefix(prefix) && AccountCommand.isSessionID(String(name.dropFirst(prefix.count)))
        }.sorted()
    }
}

/// Why `broker-admin` refused an account command, as a stable reason code (the
/// `safewalk_rejections_total` label; docs/services/broker-admin.md).
public enum AccountRefusal: Hashable, Sendable {
    /// The payload was not an `AccountCommand`: `PayloadError.code` (`malformed`, ...).
    case unreadable(PayloadError)
    /// `id` missing, empty, over 128 characters or with control characters.
    case invalidID
    /// A name starting with `_` or reserved for topic levels (`_service`, ...).
    case reservedUser
    /// A service user's name (``AccountNames/systemUsers``).
    case serviceUser
    /// `createWalker`, `setPassword`, `setDevicePassword` or `createSession` without a password.
    case missingPassword
    /// `createSession` or `deleteSession` without a session id of 16 lowercase hex digits.
    case invalidSession
    /// A password under 8 or over 256 characters, or with a NUL (the plugin reads C strings, so
    /// everything after a NUL would be silently dropped).
    case invalidPassword
    /// A retained message: a command (or an erasure) would be carried out again by every
    /// restart that subscribes anew.
    case retained

    public var code: String {
        switch self {
        case .unreadable(let error): error.code
        case .invalidID: "invalid_id"
        case .reservedUser: "reserved_user"
        case .serviceUser: "service_user"
        case .missingPassword: "missing_password"
        case .invalidSession: "invalid_session"
        case .invalidPassword: "invalid_password"
        case .retained: "retained"
        }
    }
}
