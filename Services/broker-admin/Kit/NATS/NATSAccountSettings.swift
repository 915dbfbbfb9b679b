import Foundation
import SafeWalkService

/// Which broker `broker-admin` keeps the logins of: `SAFEWALK_ADMIN_BROKER`, `mosquitto` (the
/// dynamic-security plugin, the default) or `nats` (a users file the nodes load, below).
public enum AdminBroker: String, Sendable, CaseIterable {
    case mosquitto, nats

    public init(environment env: EnvironmentReader) throws(ConfigurationError) {
        let raw = env.string("SAFEWALK_ADMIN_BROKER", default: "mosquitto")
        guard let broker = AdminBroker(rawValue: raw) else {
            throw .invalid(name: "SAFEWALK_ADMIN_BROKER", value: raw, expected: "mosquitto or nats")
        }
        self = broker
    }
}

/// `broker-admin`'s settings on a NATS cluster (`SAFEWALK_ADMIN_BROKER=nats`).
public struct NATSAccountSettings: Sendable {
    /// `SAFEWALK_NATS_USERS_FILE` (required): the file every node includes.
    public var usersFile: URL
    /// `SAFEWALK_NATS_LOADED_DIR` [the users file's directory]: where each node's
    /// `reload-on-change.sh` writes `{node}.loaded`.
    public var acknowledgements: URL
    /// `SAFEWALK_NATS_NODES` [none]: the nodes whose `{node}.loaded` an answer waits for, comma
    /// separated. With none, nothing is awaited and the operator reloads the nodes.
    public var nodes: [String]
    /// `SAFEWALK_NATS_RELOAD_WAIT` [3 s]: the longest wait for them; below web's
    /// `SAFEWALK_BROKER_ADMIN_WAIT` (5 s), so web hears the answer.
    public var reloadWait: Duration
    /// `SAFEWALK_NATS_BCRYPT_COST` [6, 4...16]: bcrypt's cost for the hashes in the users file. A
    /// node checks the hash at every MQTT CONNECT, so this is paid again by every phone's
    /// reconnect after a node's loss (docs/SCALING.md, "Sign-up on the cluster").
    public var bcryptCost: UInt8
    /// `SAFEWALK_ACL_FILE` [mosquitto/acl]: the rules the service users and walkers get, as
    /// `safewalk nats-users` reads them.
    public var aclFile: URL

    public init(
        usersFile: URL, acknowledgements: URL? = nil, nodes: [String] = [], reloadWait: Duration = .seconds(3),
        bcryptCost: UInt8 = 6, aclFile: URL = URL(fileURLWithPath: "mosquitto/acl")
    ) {
        self.usersFile = usersFile
        self.acknowledgements = acknowledgements ?? usersFile.deletingLastPathComponent()
        self.nodes = nodes
        self.reloadWait = reloadWait
        self.bcryptCost = bcryptCost
        self.aclFile = aclFile
    }

    public init(environment env: EnvironmentReader) throws(ConfigurationError) {
        guard let users = env.string("SAFEWALK_NATS_USERS_FILE") else {
            throw .missing(name: "SAFEWALK_NATS_USERS_FILE", why: "broker-admin writes the NATS nodes' logins there")
        }
        let usersFile = URL(fileURLWithPath: users)
        self.init(
            usersFile: usersFile,
            acknowledgements: env.string("SAFEWALK_NATS_LOADED_DIR").map {
                URL(fileURLWithPath: $0, isDirectory: true)
            },
            nodes: env.list("SAFEWALK_NATS_NODES", default: []),
            reloadWait: .seconds(try env.seconds("SAFEWALK_NATS_RELOAD_WAIT", default: 3)),
            bcryptCost: UInt8(try env.integer("SAFEWALK_NATS_BCRYPT_COST", default: 6, in: 4...16)),
            aclFile: URL(fileURLWithPath: env.string("SAFEWALK_ACL_FILE", default: "mosquitto/acl")))
    }
}
