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
    /// For `createWalker`, `setPassword`, `setDevicePassword` and `createSession` only; never logged.
    public var password: String?
    /// For `createSession` and `deleteSession` only: the web session's id, 16 lowercase hex
    /// digits (see ``sessionUsername(for:session:)``).
    public var session: String?

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
        /// Creates the web app session's login `{user}.app-{session}` with the role `app-{user}`
        /// (the walker's own topics, nothing else); fine when it exists.
        case createSession
        /// Removes a session's login (signed out, expired, password changed): disconnected at once.
        case deleteSession
    }

    public init(id: String, op: Operation, user: WalkerID, password: String? = nil, session: String? = nil) {
        self.id = id
        self.op = op
        self.user = user
        self.password = password
        self.session = session
    }

    /// Whether `op` needs a password.
    public static func needsPassword(_ op: Operation) -> Bool {
        switch op {
        case .createWalker, .setPassword, .setDevicePassword, .createSession: true
        case .disable, .enable, .deleteDevice, .deleteSession: false
        }
    }

    /// Whether `op` needs a `session`.
    public static func needsSession(_ op: Operation) -> Bool {
        op == .createSession || op == .deleteSession
    }

    /// Whether `session` is a session id: exactly 16 lowercase hex digits. Nothing else can
    /// become part of a login name (no `/`, `+`, `#`, dot or upper case).
    public static func isSessionID(_ session: String) -> Bool {
        session.utf8.count == 16 && session.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// The web app session's broker login for `walker`: `{w}.app-{session}`. A dot is never part
    /// of a walker id, so this can never be anyone's walker login, and the ACL file's `%u`
    /// patterns give it only topics nobody uses.
    public static func sessionUsername(for walker: WalkerID, session: String) -> String {
        "\(walker.rawValue).app-\(session)"
    }

    /// What every session login of `walker` starts with (erasure finds them by it).
    public static func sessionUsernamePrefix(for walker: WalkerID) -> String {
        "\(walker.rawValue).app-"
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
        "AccountCommand(id: \(id), op: \(op.rawValue), user: \(user)\(session.map { ", session: \($0)" } ?? "")"
            + "\(password == nil ? "" : ", password: <redacted>"))"
    }

    public var debugDescription: String { description }
}
