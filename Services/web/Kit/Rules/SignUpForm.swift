import SafeWalkCore

/// A sign-up that passed every rule that needs no database: the trimmed walker id and address,
/// and the password exactly as typed (never trimmed: spaces may be part of it).
public struct SignUpForm: Hashable, Sendable {
    public let username: WalkerID
    public let email: String
    public let password: String

    public var usernameKey: String { UsernameRule.key(username) }
    public var emailKey: String { EmailRule.key(email) }

    /// Checks the fields in the order a form shows them and reports the first that is wrong.
    public init(username: String, email: String, password: String) throws(FieldError) {
        self.username = try UsernameRule.check(username)
        self.email = try EmailRule.check(email)
        try PasswordRule.check(password)
        self.password = password
    }
}
