import SafeWalkCore

/// One plugin command and what each of its possible errors means for the account command.
public struct PlannedCommand: Hashable, Sendable {
    public var command: ControlCommand
    /// Errors that count as success (the thing is already as wanted: idempotent steps).
    public var tolerated: Set<String>
    /// Errors that answer the account command with a specific failure; any other error is a
    /// `brokerError`.
    public var failures: [String: AccountCommandResult.Failure]
    /// For `getClient`: a disabled client fails the command as `refused`.
    public var refuseDisabled: Bool

    public init(
        _ command: ControlCommand, tolerated: Set<String> = [],
        failures: [String: AccountCommandResult.Failure] = [:], refuseDisabled: Bool = false
    ) {
        self.command = command
        self.tolerated = tolerated
        self.failures = failures
        self.refuseDisabled = refuseDisabled
    }

    /// What `reply` means: nil when the command did what was wanted.
    public func failure(for reply: ControlReply) -> AccountCommandResult.Failure? {
        guard let error = reply.error else {
            return refuseDisabled && reply.data?.client?.disabled == true ? .refused : nil
        }
        if tolerated.contains(error) { return nil }
        return failures[error] ?? .brokerError
    }
}

/// An account command as plugin batches, sent one after another: a later batch is sent only
/// when every command of the one before succeeded. Pure.
public struct AccountPlan: Hashable, Sendable {
    public var steps: [[PlannedCommand]]

    public init(steps: [[PlannedCommand]]) { self.steps = steps }

    /// The first failure among one batch's answers (in command order), or nil when all succeeded.
    public static func failure(of step: [PlannedCommand], replies: [ControlReply]) -> AccountCommandResult.Failure? {
        guard replies.count == step.count else { return .brokerError }
        for (planned, reply) in zip(step, replies) {
            if let failure = planned.failure(for: reply) { return failure }
        }
        return nil
    }

    /// Whether carrying out `op` needs the walker's session logins first (``plan(for:prefix:sessions:)``'s
    /// `sessions`, from `listClients`).
    public static func needsSessions(_ op: AccountCommand.Operation) -> Bool { op == .disable }

    /// The batches that carry out `command`, which ``AccountIntake`` accepted (so a password and
    /// a session id are present where one is needed). `sessions` are the walker's app session
    /// logins (only `disable` reads them); `prefix` is the topic prefix of the app role's ACLs.
    public static func plan(
        for command: AccountCommand, prefix: String = Topic.defaultPrefix, sessions: [String] = []
    ) -> AccountPlan {
        let walker = command.user.rawValue
        let device = AccountNames.device(of: command.user)
        let password = command.password ?? ""
        let missingWalker: [String: AccountCommandResult.Failure] = [PluginError.clientNotFound: .notFound]
        let noDevice: Set<String> = [PluginError.clientNotFound]
        switch command.op {
        case .createWalker:
            // No role: a walker's rights are the ACL file's `pattern` lines (docs/services/broker-admin.md).
            return AccountPlan(steps: [
                [
                    PlannedCommand(
                        .createClient(username: walker, password: password),
                        failures: [PluginError.clientExists: .exists])
                ]
            ])
        case .setPassword:
            return AccountPlan(steps: [
                [PlannedCommand(.setClientPassword(username: walker, password: password), failures: missingWalker)]
            ])
        case .disable:
            // The app's session logins are deleted, not disabled: `web` makes a session's login
            // again when it is next used, so an erasure the watchdog refuses needs no `enable` for them.
            return AccountPlan(steps: [
                [
                    PlannedCommand(.disableClient(username: walker), failures: missingWalker),
                    PlannedCommand(.disableClient(username: device), tolerated: noDevice),
                ] + sessions.map { PlannedCommand(.deleteClient(username: $0), tolerated: noDevice) }
            ])
        case .enable:
            return AccountPlan(steps: [
                [
                    PlannedCommand(.enableClient(username: walker), failures: missingWalker),
                    PlannedCommand(.enableClient(username: device), tolerated: noDevice),
                ]
            ])
        case .setDevicePassword:
            // Only for an existing, enabled walker; then the device login is made afresh (the
            // old one is deleted, which disconnects a phone holding the old password).
            return AccountPlan(steps: [
                [PlannedCommand(.getClient(username: walker), failures: missingWalker, refuseDisabled: true)],
                [PlannedCommand(.deleteClient(username: device), tolerated: noDevice)]
                    + DeviceRights.role(for: command.user)
                    + [
                        PlannedCommand(
                            .createClient(
                                username: device, password: password, roles: [DeviceRights.roleName(command.user)]))
                    ],
            ])
        case .deleteDevice:
            // Idempotent: no device login is what was asked for.
            return AccountPlan(steps: [
                [
                    PlannedCommand(.deleteClient(username: device), tolerated: noDevice),
                    PlannedCommand(
                        .deleteRole(name: DeviceRights.roleName(command.user)), tolerated: [PluginError.roleNotFound]),
                ]
            ])
        case .createSession:
            // Only for an existing, enabled walker. The login's name and password both follow
            // from the browser's cookie, so one that exists already is this session's own.
            let login = AccountCommand.sessionUsername(for: command.user, session: command.session ?? "")
            return AccountPlan(steps: [
                [PlannedCommand(.getClient(username: walker), failures: missingWalker, refuseDisabled: true)],
                AppRights.role(for: command.user, prefix: prefix)
                    + [
                        PlannedCommand(
                            .createClient(
                                username: login, password: password, roles: [AppRights.roleName(command.user)]),
                            tolerated: [PluginError.clientExists])
                    ],
            ])
        case .deleteSession:
            let login = AccountCommand.sessionUsername(for: command.user, session: command.session ?? "")
            return AccountPlan(steps: [[PlannedCommand(.deleteClient(username: login), tolerated: noDevice)]])
        }
    }

    /// broker-admin's part of an erasure: the walker's login, its device's login, its app
    /// sessions' logins (`sessions`, from `listClients`) and both roles. Whatever is already gone
    /// is fine. Deleting `app-{w}` also leaves any session login missed by the list without rights.
    public static func erasure(of walker: WalkerID, sessions: [String] = []) -> [PlannedCommand] {
        let gone: Set<String> = [PluginError.clientNotFound]
        return [
            PlannedCommand(.deleteClient(username: walker.rawValue), tolerated: gone),
            PlannedCommand(.deleteClient(username: AccountNames.device(of: walker)), tolerated: gone),
        ] + sessions.map { PlannedCommand(.deleteClient(username: $0), tolerated: gone) } + [
            PlannedCommand(.deleteRole(name: DeviceRights.roleName(walker)), tolerated: [PluginError.roleNotFound]),
            PlannedCommand(.deleteRole(name: AppRights.roleName(walker)), tolerated: [PluginError.roleNotFound]),
        ]
    }
}

/// The OwnTracks device login's rights, as the dynamic-security role `device-{w}`: publish its
/// own locations (`owntracks/{w}/+`), and subscribe to and receive its commands
/// (`owntracks/{w}/+/cmd`). The plugin does not expand `%u` (measured), hence a role per walker.
public enum DeviceRights {
    /// `device-{w}`. A walker id never holds a dot, so this never names a walker's login.
    public static func roleName(_ walker: WalkerID) -> String { "device-\(walker.rawValue)" }

    /// `createRole` (fine if it exists) and its three ACLs (fine if present): run again, it
    /// repairs a role missing an ACL.
    static func role(for walker: WalkerID) -> [PlannedCommand] {
        let role = roleName(walker)
        let own = TopicFilter.owntracks(of: walker).rawValue
        let commands = TopicFilter.owntracksCommands(of: walker).rawValue
        return [
            PlannedCommand(.createRole(name: role), tolerated: [PluginError.roleExists]),
            PlannedCommand(
                .addRoleACL(role: role, type: .publishClientSend, topic: own, allow: true),
                tolerated: [PluginError.aclExists]),
            PlannedCommand(
                .addRoleACL(role: role, type: .subscribePattern, topic: commands, allow: true),
                tolerated: [PluginError.aclExists]),
            PlannedCommand(
                .addRoleACL(role: role, type: .publishClientReceive, topic: commands, allow: true),
                tolerated: [PluginError.aclExists]),
        ]
    }
}
