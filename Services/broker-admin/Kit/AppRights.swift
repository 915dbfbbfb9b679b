import SafeWalkCore

/// A web app session login's rights, as the dynamic-security role `app-{w}`: exactly what the
/// walker's own device may do on `{prefix}/{w}/…` (``AppTopics``), as literal topics. The plugin
/// does not expand `%u` (measured), and a session login's `%u` is `{w}.app-{session}` anyway,
/// hence one role per walker, shared by all of its sessions.
public enum AppRights {
    /// `app-{w}`. A walker id never holds a dot, and this holds no dot either, but a role is not
    /// a login: the name only has to differ from `device-{w}`.
    public static func roleName(_ walker: WalkerID) -> String { "app-\(walker.rawValue)" }

    /// `createRole` (fine if it exists) and its ACLs (fine if present): `publishClientSend` on each
    /// input topic, `subscribePattern` and `publishClientReceive` on each read filter. Run again, it
    /// repairs a role missing an ACL.
    public static func role(for walker: WalkerID, prefix: String) -> [PlannedCommand] {
        let role = roleName(walker)
        let exists: Set<String> = [PluginError.aclExists]
        let sends = AppTopics.inputTopics(of: walker, prefix: prefix).map { topic in
            PlannedCommand(
                .addRoleACL(role: role, type: .publishClientSend, topic: topic, allow: true), tolerated: exists)
        }
        let reads = AppTopics.readFilters(of: walker, prefix: prefix).flatMap { filter in
            [ControlCommand.ACLType.subscribePattern, .publishClientReceive].map { type in
                PlannedCommand(.addRoleACL(role: role, type: type, topic: filter, allow: true), tolerated: exists)
            }
        }
        return [PlannedCommand(.createRole(name: role), tolerated: [PluginError.roleExists])] + sends + reads
    }
}
