import BrokerAdminKit
import Synchronization

/// The dynamic-security plugin in memory, for unit tests of the service: clients, roles and
/// default access, answering each command with the plugin's own error texts (v2.0.11).
/// `answering = false` makes it carry batches out without answering, as when the answer is lost.
final class FakePlugin: DynamicSecurity {
    struct Client: Equatable {
        var password: String
        var disabled = false
        var roles: [String] = []
    }

    struct State {
        var clients: [String: Client] = [:]
        var roles: [String: [ControlReply.RoleACL]] = [:]
        var defaults: [ControlCommand.ACLType: Bool] = [
            .publishClientSend: false, .publishClientReceive: true, .subscribe: false, .unsubscribe: true,
        ]
        var batches: [[ControlCommand]] = []
        var answering = true
    }

    let state = Mutex(State())

    /// As `mosquitto_ctrl dynsec init FILE broker-admin …` leaves it.
    static func initialised() -> FakePlugin {
        let plugin = FakePlugin()
        plugin.state.withLock { state in
            state.clients["broker-admin"] = Client(password: "admin-pw", roles: ["admin"])
            state.roles["admin"] = PluginPolicyTests.initAdminRole.acls
        }
        return plugin
    }

    var clients: [String: Client] { state.withLock { $0.clients } }
    var roles: [String: [ControlReply.RoleACL]] { state.withLock { $0.roles } }
    var batches: [[ControlCommand]] { state.withLock { $0.batches } }

    func perform(_ commands: [ControlCommand]) async throws -> [ControlReply] {
        let (replies, answering) = state.withLock { state in
            state.batches.append(commands)
            return (commands.map { apply($0, to: &state) }, state.answering)
        }
        guard answering else { throw DynamicSecurityError.noAnswer(commands: commands.map(\.name), timeout: .zero) }
        return replies
    }

    func post(_ commands: [ControlCommand]) async throws {
        state.withLock { state in
            state.batches.append(commands)
            for command in commands { _ = apply(command, to: &state) }
        }
    }

    private func apply(_ command: ControlCommand, to state: inout State) -> ControlReply {
        func reply(_ error: String? = nil, data: ControlReply.ReplyData? = nil) -> ControlReply {
            ControlReply(command: command.name, error: error, data: data)
        }
        switch command {
        case .createClient(let username, let password, let roles):
            guard state.clients[username] == nil else { return reply(PluginError.clientExists) }
            guard roles.allSatisfy({ state.roles[$0] != nil }) else { return reply(PluginError.roleNotFound) }
            state.clients[username] = Client(password: password, roles: roles)
        case .deleteClient(let username):
            guard state.clients.removeValue(forKey: username) != nil else { return reply(PluginError.clientNotFound) }
        case .setClientPassword(let username, let password):
            guard state.clients[username] != nil else { return reply(PluginError.clientNotFound) }
            state.clients[username]?.password = password
        case .disableClient(let username), .enableClient(let username):
            guard state.clients[username] != nil else { return reply(PluginError.clientNotFound) }
            if case .disableClient = command { state.clients[username]?.disabled = true }
            if case .enableClient = command { state.clients[username]?.disabled = false }
        case .getClient(let username):
            guard let client = state.clients[username] else { return reply(PluginError.clientNotFound) }
            let data = ControlReply.Client(
                username: username, roles: client.roles.map(ControlReply.RoleRef.init),
                disabled: client.disabled ? true : nil)
            return reply(data: .init(client: data))
        case .listClients:
            return reply(data: .init(clients: state.clients.keys.sorted()))
        case .createRole(let name):
            guard state.roles[name] == nil else { return reply(PluginError.roleExists) }
            state.roles[name] = []
        case .deleteRole(let name):
            guard state.roles.removeValue(forKey: name) != nil else { return reply(PluginError.roleNotFound) }
            for username in state.clients.keys { state.clients[username]?.roles.removeAll { $0 == name } }
        case .getRole(let name):
            guard let acls = state.roles[name] else { return reply(PluginError.roleNotFound) }
            return reply(data: .init(role: .init(rolename: name, acls: acls)))
        case .addRoleACL(let role, let type, let topic, let allow):
            guard var acls = state.roles[role] else { return reply(PluginError.roleNotFound) }
            guard !acls.contains(where: { $0.acltype == type.rawValue && $0.topic == topic }) else {
                return reply(PluginError.aclExists)
            }
            acls.append(.init(acltype: type.rawValue, topic: topic, allow: allow))
            state.roles[role] = acls
        case .removeRoleACL(let role, let type, let topic):
            guard var acls = state.roles[role] else { return reply(PluginError.roleNotFound) }
            guard let index = acls.firstIndex(where: { $0.acltype == type.rawValue && $0.topic == topic }) else {
                return reply(PluginError.aclNotFound)
            }
            acls.remove(at: index)
            state.roles[role] = acls
        case .setDefaultACLAccess(let acls):
            for acl in acls { state.defaults[acl.acltype] = acl.allow }
        case .getDefaultACLAccess:
            let acls = [ControlCommand.ACLType.publishClientSend, .publishClientReceive, .subscribe, .unsubscribe].map {
                ControlCommand.DefaultAccess($0, allow: state.defaults[$0] ?? false)
            }
            return reply(data: .init(acls: acls))
        }
        return reply()
    }
}
