/// What `broker-admin` makes of the plugin's own settings at start-up, before it takes a command.
/// Pure: the corrections are a function of what the plugin reports.
///
/// `mosquitto_ctrl dynsec init` (2.0.11) writes a policy that would undo the ACL file, measured
/// on this machine: its default access lets every dynamic-security client *receive* any topic it
/// subscribes to (`publishClientReceive: true`; Mosquitto's ACL file never refuses a SUBSCRIBE,
/// only the delivery), so a walker created in the plugin read another walker's status; and the
/// admin role it makes receives `#` and `$SYS/#`, so the admin login read every walker's PINs on
/// `{w}/action`. With every default `false` the plugin defers whatever its roles do not name to
/// the ACL file, which is then the whole policy for walkers and for `broker-admin` itself.
public enum PluginPolicy {
    /// The one topic the admin login's roles may allow: the plugin's own control topics.
    public static let controlTopics = "$CONTROL/dynamic-security/#"

    /// Every default access type denied, i.e. deferred to the ACL file.
    public static let defaults: [ControlCommand.DefaultAccess] = [
        .init(.publishClientSend, allow: false), .init(.publishClientReceive, allow: false),
        .init(.subscribe, allow: false), .init(.unsubscribe, allow: false),
    ]

    /// First look: the defaults, and which roles the admin login holds.
    public static func survey(admin: String) -> [ControlCommand] {
        [.getDefaultACLAccess, .getClient(username: admin)]
    }

    /// The admin login's roles, from the survey's answers.
    public static func adminRoles(from replies: [ControlReply]) -> [String] {
        replies.compactMap { $0.data?.client?.roles }.flatMap { $0 }.map(\.rolename)
    }

    /// The commands that bring the plugin to the policy: `setDefaultACLAccess` when any default
    /// allows, and `removeRoleACL` for every allowing ACL of the admin's roles outside
    /// ``controlTopics``. Empty when the plugin already complies.
    ///
    /// Changing the admin's own role makes the plugin kick the admin login (every client holding
    /// a changed role is disconnected): the answer to that batch is lost, so the caller publishes
    /// it without waiting and surveys again once reconnected.
    public static func corrections(
        defaults current: [ControlCommand.DefaultAccess], roles: [ControlReply.Role]
    ) -> [ControlCommand] {
        var commands: [ControlCommand] = []
        let allowing = Set(current.filter(\.allow).map(\.acltype))
        if !allowing.isEmpty || Set(current.map(\.acltype)) != Set(defaults.map(\.acltype)) {
            commands.append(.setDefaultACLAccess(defaults))
        }
        for role in roles {
            for acl in role.acls ?? [] where acl.allow && acl.topic != controlTopics {
                guard let type = ControlCommand.ACLType(rawValue: acl.acltype) else { continue }
                commands.append(.removeRoleACL(role: role.rolename, type: type, topic: acl.topic))
            }
        }
        return commands
    }
}
