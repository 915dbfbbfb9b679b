import Foundation

/// One command of Mosquitto's dynamic-security plugin (2.0), as published in
/// `{"commands":[…]}` to `$CONTROL/dynamic-security/v1` (plugins/dynamic-security/README.md in
/// the mosquitto v2.0.11 sources). Only the commands `broker-admin` uses. Pure.
public enum ControlCommand: Hashable, Sendable {
    case createClient(username: String, password: String, roles: [String] = [])
    case deleteClient(username: String)
    case setClientPassword(username: String, password: String)
    /// Refuses the login and kicks every connection with that username.
    case disableClient(username: String)
    case enableClient(username: String)
    case getClient(username: String)
    /// Every client's username (`verbose: false`, all of them).
    case listClients
    case createRole(name: String)
    /// Kicks every client holding the role.
    case deleteRole(name: String)
    case getRole(name: String)
    /// Kicks every client holding the role.
    case addRoleACL(role: String, type: ACLType, topic: String, allow: Bool)
    /// Kicks every client holding the role.
    case removeRoleACL(role: String, type: ACLType, topic: String)
    /// What the plugin answers when none of a client's role ACLs matches. Kicks nobody.
    case setDefaultACLAccess([DefaultAccess])
    case getDefaultACLAccess

    /// The plugin's ACL types (`acltype`).
    public enum ACLType: String, Codable, CaseIterable, Hashable, Sendable {
        case publishClientSend, publishClientReceive
        case subscribe, unsubscribe
        case subscribeLiteral, subscribePattern, unsubscribeLiteral, unsubscribePattern
    }

    /// One entry of `setDefaultACLAccess` / `getDefaultACLAccess`.
    public struct DefaultAccess: Codable, Hashable, Sendable {
        public var acltype: ACLType
        public var allow: Bool

        public init(_ acltype: ACLType, allow: Bool) {
            self.acltype = acltype
            self.allow = allow
        }
    }

    /// The plugin's name for the command; its answer carries the same name.
    public var name: String {
        switch self {
        case .createClient: "createClient"
        case .deleteClient: "deleteClient"
        case .setClientPassword: "setClientPassword"
        case .disableClient: "disableClient"
        case .enableClient: "enableClient"
        case .getClient: "getClient"
        case .listClients: "listClients"
        case .createRole: "createRole"
        case .deleteRole: "deleteRole"
        case .getRole: "getRole"
        case .addRoleACL: "addRoleACL"
        case .removeRoleACL: "removeRoleACL"
        case .setDefaultACLAccess: "setDefaultACLAccess"
        case .getDefaultACLAccess: "getDefaultACLAccess"
        }
    }

    /// The command as the plugin reads it. Internal: it holds passwords.
    func wire(correlationData: String) -> Wire {
        var wire = Wire(command: name, correlationData: correlationData)
        switch self {
        case .createClient(let username, let password, let roles):
            wire.username = username
            wire.password = password
            wire.roles = roles.isEmpty ? nil : roles.map { Wire.RoleRef(rolename: $0) }
        case .deleteClient(let username), .disableClient(let username), .enableClient(let username),
            .getClient(let username):
            wire.username = username
        case .setClientPassword(let username, let password):
            wire.username = username
            wire.password = password
        case .createRole(let name), .deleteRole(let name), .getRole(let name):
            wire.rolename = name
        case .addRoleACL(let role, let type, let topic, let allow):
            wire.rolename = role
            wire.acltype = type
            wire.topic = topic
            wire.allow = allow
        case .removeRoleACL(let role, let type, let topic):
            wire.rolename = role
            wire.acltype = type
            wire.topic = topic
        case .setDefaultACLAccess(let acls):
            wire.acls = acls
        case .listClients:
            wire.verbose = false
        case .getDefaultACLAccess:
            break
        }
        return wire
    }

    /// One command on the wire; absent fields are left out.
    struct Wire: Encodable {
        struct RoleRef: Encodable { var rolename: String }

        var command: String
        var correlationData: String
        var username: String?
        var password: String?
        var roles: [RoleRef]?
        var rolename: String?
        var acltype: ACLType?
        var topic: String?
        var allow: Bool?
        var acls: [DefaultAccess]?
        var verbose: Bool?
    }
}

extension ControlCommand: CustomStringConvertible {
    /// For logs: names and topics, never a password.
    public var description: String {
        switch self {
        case .createClient(let username, _, let roles):
            roles.isEmpty ? "createClient(\(username))" : "createClient(\(username), roles: \(roles))"
        case .setClientPassword(let username, _): "setClientPassword(\(username))"
        case .deleteClient(let username), .disableClient(let username), .enableClient(let username),
            .getClient(let username):
            "\(name)(\(username))"
        case .createRole(let role), .deleteRole(let role), .getRole(let role): "\(name)(\(role))"
        case .addRoleACL(let role, let type, let topic, let allow):
            "addRoleACL(\(role), \(type.rawValue) \(topic) \(allow ? "allow" : "deny"))"
        case .removeRoleACL(let role, let type, let topic): "removeRoleACL(\(role), \(type.rawValue) \(topic))"
        case .setDefaultACLAccess(let acls):
            "setDefaultACLAccess(\(acls.map { "\($0.acltype.rawValue)=\($0.allow)" }.joined(separator: ", ")))"
        case .getDefaultACLAccess, .listClients: name
        }
    }
}
