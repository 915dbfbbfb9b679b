/// What `web` may ask of `broker-admin` on `_accounts/command` (docs/CONTRACT.md, "Accounts").
///
/// The set is deliberately narrow: `web` faces the internet, so whatever it can send here is what
/// an attacker who took it over could do. None of these grants a right beyond a walker's own, and
/// `broker-admin` validates every name again before it touches the broker.
public struct AccountCommand: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    /// Chosen by `web`; the answer on `_accounts/result` carries it back.
    public var id: String
    public var op: Operation
    public var user: WalkerID
    /// For `createWalker`, `setPassword` and `setDevicePassword` only; never logged.
    public var password: String?

    public enum Operation: String, Codable, CaseIterable, Hashable, Sendable {
        /// A broker login `{user}` with the account's password; rights come from the ACL's
        /// walker patterns.
        case createWalker
        /// A new password for `{user}`.
        case setPassword
        /// Kicks `{user}` and its device off the broker and refuses their logins (an erasure's
        /// first step, so no new input arrives while the services erase).
        case disable
        /// Undoes `disable` (the erasure was refused).
        case enable
        /// Creates or replaces the OwnTracks login `{user}.owntracks` (see ``deviceUsername(for:)``).
        case setDevicePassword
        /// Removes the OwnTracks login: the device is disconnected and cannot reconnect.
        case deleteDevice
    }

    public init(id: String, op: Operation, user: WalkerID, password: String? = nil) {
        self.id = id
        self.op = op
        self.user = user
        self.password = password
    }

    /// Whether `op` needs a password.
    public static func needsPassword(_ op: Operation) -> Bool {
        switch op {
        case .createWalker, .setPassword, .setDevicePassword: true
        case .disable, .enable, .deleteDevice: false
        }
    }

    /// The OwnTracks device's broker login for `walker`. A dot is never part of a walker id,
    /// so this can never be anyone's walker login.
    public static func deviceUsername(for walker: WalkerID) -> String {
        "\(walker.rawValue).owntracks"
    }
}

/// `broker-admin`'s answer on `_accounts/result`.
public struct AccountCommandResult: Codable, Hashable, Sendable {
    var v = SchemaVersion()
    public var id: String
    public var ok: Bool
    public var error: Failure?

    public enum Failure: String, Codable, Hashable, Sendable {
        /// `createWalker` for a login that exists.
        case exists
        /// The login does not exist.
        case notFound
        /// The command was not acceptable (a reserved name, a missing password, …).
        case refused
        /// The broker's plugin did not answer or answered with an error.
        case brokerError
    }

    public init(id: String, ok: Bool, error: Failure? = nil) {
        self.id = id
        self.ok = ok
        self.error = error
    }
}

extension AccountCommand: CustomStringConvertible, CustomDebugStringConvertible {
    /// For logs: everything but the password, which is only said to be there.
    public var description: String {
        "AccountCommand(id: \(id), op: \(op.rawValue), user: \(user)\(password == nil ? "" : ", password: <redacted>"))"
    }

    public var debugDescription: String { description }
}
