import Foundation

/// One answer of the plugin, read from `$CONTROL/dynamic-security/v1/response`:
/// `{"responses":[{"command":"createClient","error":"Client already exists","correlationData":"…"}, …]}`
/// (one message per published batch, one entry per command, in order; `error` absent on
/// success; `data` only for the `get…` commands). Pure.
public struct ControlReply: Decodable, Hashable, Sendable {
    public var command: String
    public var error: String?
    public var correlationData: String?
    public var data: ReplyData?

    public init(command: String, error: String? = nil, correlationData: String? = nil, data: ReplyData? = nil) {
        self.command = command
        self.error = error
        self.correlationData = correlationData
        self.data = data
    }

    /// The parts of `data` that `broker-admin` reads (the plugin's policy, at start-up).
    public struct ReplyData: Decodable, Hashable, Sendable {
        /// `getClient`.
        public var client: Client?
        /// `getRole`.
        public var role: Role?
        /// `getDefaultACLAccess`.
        public var acls: [ControlCommand.DefaultAccess]?
        /// `listClients` (not verbose): every username.
        public var clients: [String]?

        public init(
            client: Client? = nil, role: Role? = nil, acls: [ControlCommand.DefaultAccess]? = nil,
            clients: [String]? = nil
        ) {
            self.client = client
            self.role = role
            self.acls = acls
            self.clients = clients
        }
    }

    public struct Client: Decodable, Hashable, Sendable {
        public var username: String
        public var roles: [RoleRef]?
        public var disabled: Bool?

        public init(username: String, roles: [RoleRef]? = nil, disabled: Bool? = nil) {
            self.username = username
            self.roles = roles
            self.disabled = disabled
        }
    }

    public struct RoleRef: Decodable, Hashable, Sendable {
        public var rolename: String
        public init(rolename: String) { self.rolename = rolename }
    }

    public struct Role: Decodable, Hashable, Sendable {
        public var rolename: String
        public var acls: [RoleACL]?

        public init(rolename: String, acls: [RoleACL]? = nil) {
            self.rolename = rolename
            self.acls = acls
        }
    }

    public struct RoleACL: Decodable, Hashable, Sendable {
        public var acltype: String
        public var topic: String
        public var allow: Bool

        public init(acltype: String, topic: String, allow: Bool) {
            self.acltype = acltype
            self.topic = topic
            self.allow = allow
        }
    }
}

/// The plugin's error texts `broker-admin` acts on (plugins/dynamic-security/*.c, v2.0.11).
/// Any other error is a `brokerError`.
public enum PluginError {
    public static let clientExists = "Client already exists"
    public static let clientNotFound = "Client not found"
    public static let roleExists = "Role already exists"
    public static let roleNotFound = "Role not found"
    public static let aclExists = "ACL with this topic already exists"
    public static let aclNotFound = "ACL not found"
}

/// A batch of commands as one control message, and the matching of the plugin's answer to it.
/// Every command carries `correlationData` `"{batch}/{index}"`, which the plugin echoes: the
/// response topic is shared, so this is how an answer finds its batch. Pure.
public struct ControlBatch: Hashable, Sendable {
    public let id: String
    public let commands: [ControlCommand]

    public init(id: String, commands: [ControlCommand]) {
        self.id = id
        self.commands = commands
    }

    /// `{"commands":[…]}`. Holds passwords: publish it, never log it.
    public func payload() throws -> Data {
        struct Envelope: Encodable { var commands: [ControlCommand.Wire] }
        let wires = commands.enumerated().map { index, command in
            command.wire(correlationData: "\(id)/\(index)")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(Envelope(commands: wires))
    }

    /// The batch id a response message answers, from its first entry; nil when it is not a
    /// response to any batch of ours (unparseable, or a batch the plugin could not read).
    public static func batchID(of response: Data) -> String? {
        guard let replies = replies(in: response),
            let correlation = replies.first?.correlationData,
            let slash = correlation.lastIndex(of: "/")
        else { return nil }
        return String(correlation[..<slash])
    }

    /// Every entry of a response message; nil when it is not one.
    public static func replies(in response: Data) -> [ControlReply]? {
        struct Envelope: Decodable { var responses: [ControlReply] }
        return try? JSONDecoder().decode(Envelope.self, from: response).responses
    }

    /// This batch's answers, one per command in order, or nil when `replies` does not answer
    /// exactly this batch (a missing or extra entry, another batch's correlation data).
    public func match(_ replies: [ControlReply]) -> [ControlReply]? {
        guard replies.count == commands.count else { return nil }
        for (index, reply) in replies.enumerated() {
            guard reply.correlationData == "\(id)/\(index)", reply.command == commands[index].name else { return nil }
        }
        return replies
    }
}
