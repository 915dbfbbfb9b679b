import SafeWalkCore

/// A username is a walker id (`[A-Za-z0-9_-]{1,64}`, SafeWalkCore's rule), typed with any
/// surrounding whitespace, unique regardless of case, and never a name that could be mistaken for
/// the system.
public enum UsernameRule {
    /// The service users of the broker and the names people expect an administrator to have.
    /// Compared regardless of case; anything starting with `_` is reserved too (`_service`,
    /// `_rejected`, `_accounts` are topic levels).
    public static let reserved: Set<String> = [
        "location-ingest", "watchdog", "companion-chat", "notifier", "contacts-store", "channel-example",
        "operator", "web", "broker-admin", "admin", "root",
    ]

    /// The walker id `raw` names, or the reason it cannot be one.
    public static func check(_ raw: String) throws(FieldError) -> WalkerID {
        let trimmed = raw.trimmingWhitespace()
        let walker: WalkerID
        do {
            walker = try WalkerID(trimmed)
        } catch {
            switch error {
            case .empty: throw FieldError(.username, .empty)
            case .tooLong: throw FieldError(.username, .tooLong)
            case .invalidCharacter: throw FieldError(.username, .invalidCharacters)
            case .reserved: throw FieldError(.username, .reserved)
            }
        }
        if isReserved(walker.rawValue) { throw FieldError(.username, .reserved) }
        return walker
    }

    public static func isReserved(_ name: String) -> Bool {
        name.hasPrefix("_") || reserved.contains(name.lowercased())
    }

    /// What uniqueness is decided on: `Alice` and `alice` are one account.
    public static func key(_ walker: WalkerID) -> String { walker.rawValue.lowercased() }

    /// The key a sign-in's typed name would have, or nil when it cannot name an account (so it
    /// never costs a rate-limit entry or a query).
    public static func lookupKey(_ typed: String) -> String? {
        guard let walker = WalkerID(validating: typed.trimmingWhitespace()) else { return nil }
        return key(walker)
    }
}

extension String {
    /// Without leading and trailing whitespace and newlines (Unicode's, not only ASCII's).
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
