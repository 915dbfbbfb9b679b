import SafeWalkBrokerPolicy
import SafeWalkCore

/// The logins and roles `broker-admin` keeps for a NATS cluster, changed by the same plugin
/// commands ``AccountPlan`` sends to Mosquitto's dynamic-security plugin, and answered with the
/// plugin's own replies and error texts, so the account logic is one for both brokers. Pure: a
/// value, changed one command at a time (``apply(_:hash:)``), turned into the nodes' users by
/// ``logins(acl:)``.
///
/// Where NATS differs, the plugin's meaning is kept: a disabled login is left out of the users
/// file (the node refuses it and, on reload, closes its connections, measured with 2.15.1); the
/// default access is "deny" and cannot be changed, as NATS denies whatever no rule allows.
public struct NATSDirectory: Equatable, Sendable {
    public struct Login: Equatable, Sendable, Codable {
        /// bcrypt, never the password itself.
        public var passwordHash: String
        public var disabled: Bool
        public var roles: [String]

        public init(passwordHash: String, disabled: Bool = false, roles: [String] = []) {
            self.passwordHash = passwordHash
            self.disabled = disabled
            self.roles = roles
        }
    }

    public struct RoleACL: Equatable, Hashable, Sendable, Codable {
        public var type: ControlCommand.ACLType
        public var topic: String
        public var allow: Bool

        public init(type: ControlCommand.ACLType, topic: String, allow: Bool) {
            self.type = type
            self.topic = topic
            self.allow = allow
        }
    }

    public var logins: [String: Login]
    public var roles: [String: [RoleACL]]

    public init(logins: [String: Login] = [:], roles: [String: [RoleACL]] = [:]) {
        self.logins = logins
        self.roles = roles
    }

    /// What one command changed, so the store writes only those rows.
    public struct Change: Equatable, Sendable {
        public var logins: Set<String> = []
        public var roles: Set<String> = []

        public init(logins: Set<String> = [], roles: Set<String> = []) {
            self.logins = logins
            self.roles = roles
        }

        public var isEmpty: Bool { logins.isEmpty && roles.isEmpty }

        public mutating func formUnion(_ other: Change) {
            logins.formUnion(other.logins)
            roles.formUnion(other.roles)
        }
    }

    /// Carries out `command` as the plugin would, returning its reply and what it changed.
    /// `hash` makes a password's bcrypt hash (only `createClient` and `setClientPassword` call it).
    public mutating func apply(_ command: ControlCommand, hash: (String) -> String) -> (ControlReply, Change) {
        let name = command.name
        func failed(_ error: String) -> (ControlReply, Change) { (ControlReply(command: name, error: error), Change()) }
        func done(logins: Set<String> = [], roles: Set<String> = [], data: ControlReply.ReplyData? = nil)
            -> (ControlReply, Change)
        {
            (ControlReply(command: name, data: data), Change(logins: logins, roles: roles))
        }
        switch command {
        case .createClient(let username, let password, let roles):
            guard self.logins[username] == nil else { return failed(PluginError.clientExists) }
            guard roles.allSatisfy({ self.roles[$0] != nil }) else { return failed(PluginError.roleNotFound) }
            self.logins[username] = Login(passwordHash: hash(password), roles: roles)
            return done(logins: [username])
        case .deleteClient(let username):
            guard logins.removeValue(forKey: username) != nil else { return failed(PluginError.clientNotFound) }
            return done(logins: [username])
        case .setClientPassword(let username, let password):
            guard logins[username] != nil else { return failed(PluginError.clientNotFound) }
            logins[username]?.passwordHash = hash(password)
            return done(logins: [username])
        case .disableClient(let username), .enableClient(let username):
            guard logins[username] != nil else { return failed(PluginError.clientNotFound) }
            logins[username]?.disabled = name == "disableClient"
            return done(logins: [username])
        case .getClient(let username):
            guard let login = logins[username] else { return failed(PluginError.clientNotFound) }
            let client = ControlReply.Client(
                username: username, roles: login.roles.map { ControlReply.RoleRef(rolename: $0) },
                disabled: login.disabled)
            return done(data: ControlReply.ReplyData(client: client))
        case .listClients:
            return done(data: ControlReply.ReplyData(clients: logins.keys.sorted()))
        case .createRole(let role):
            guard roles[role] == nil else { return failed(PluginError.roleExists) }
            roles[role] = []
            return done(roles: [role])
        case .deleteRole(let role):
            guard roles.removeValue(forKey: role) != nil else { return failed(PluginError.roleNotFound) }
            // As the plugin does: the role leaves every login that held it.
            var holders: Set<String> = []
            for (username, login) in logins where login.roles.contains(role) {
                logins[username]?.roles.removeAll { $0 == role }
                holders.insert(username)
            }
            return done(logins: holders, roles: [role])
        case .getRole(let role):
            guard let acls = roles[role] else { return failed(PluginError.roleNotFound) }
            let listed = acls.map { ControlReply.RoleACL(acltype: $0.type.rawValue, topic: $0.topic, allow: $0.allow) }
            return done(data: ControlReply.ReplyData(role: ControlReply.Role(rolename: role, acls: listed)))
        case .addRoleACL(let role, let type, let topic, let allow):
            guard let acls = roles[role] else { return failed(PluginError.roleNotFound) }
            guard !acls.contains(where: { $0.type == type && $0.topic == topic }) else {
                return failed(PluginError.aclExists)
            }
            roles[role]?.append(RoleACL(type: type, topic: topic, allow: allow))
            return done(roles: [role])
        case .removeRoleACL(let role, let type, let topic):
            guard let acls = roles[role] else { return failed(PluginError.roleNotFound) }
            guard acls.contains(where: { $0.type == type && $0.topic == topic }) else {
                return failed(PluginError.aclNotFound)
            }
            roles[role]?.removeAll { $0.type == type && $0.topic == topic }
            return done(roles: [role])
        case .getDefaultACLAccess:
            return done(data: ControlReply.ReplyData(acls: Self.defaultAccess))
        case .setDefaultACLAccess(let access):
            return access.allSatisfy { !$0.allow } ? done() : failed(Self.defaultsFixed)
        }
    }

    /// NATS denies whatever no rule allows: the plugin's defaults as ``PluginPolicy`` wants them.
    public static let defaultAccess = PluginPolicy.defaults

    /// The reply to a `setDefaultACLAccess` that would allow something.
    public static let defaultsFixed = "A NATS cluster denies what no rule allows; the default cannot allow"

    /// Every enabled login as a user of the nodes, sorted by name. A walker's login (a name that
    /// is a walker id) has the ACL's `pattern` rights with its name for `%u`, as on Mosquitto,
    /// plus its roles'; a device's or an app session's login (`{w}.owntracks`, `{w}.app-…`) has
    /// only its roles': the patterns would give it topics with a dot, which no one uses and NATS
    /// cannot name. A role's `publishClientSend` is a right to publish, its subscribe and receive
    /// types a right to subscribe; an ACL that denies adds nothing, since NATS denies by default.
    public func logins(acl: BrokerACL) -> [NATSAuthorization.Login] {
        logins.keys.sorted().compactMap { username in
            guard let login = logins[username], !login.disabled else { return nil }
            var rules = WalkerID(validating: username) == nil ? [] : acl.rules(for: username)
            for role in login.roles {
                for entry in roles[role] ?? [] where entry.allow {
                    guard let access = Self.access(of: entry.type) else { continue }
                    rules.append(BrokerACL.Rule(access, entry.topic))
                }
            }
            return NATSAuthorization.Login(user: username, password: .bcrypt(login.passwordHash), rules: rules)
        }
    }

    private static func access(of type: ControlCommand.ACLType) -> BrokerACL.Access? {
        switch type {
        case .publishClientSend: .write
        case .publishClientReceive, .subscribe, .subscribeLiteral, .subscribePattern: .read
        case .unsubscribe, .unsubscribeLiteral, .unsubscribePattern: nil
        }
    }
}
