import BrokerAdminKit
import Logging
import Testing

@Suite("The plugin's policy: deny by default, the admin reads only its control topics")
struct PluginPolicyTests {
    /// `mosquitto_ctrl dynsec init` (2.0.11) writes these defaults and this admin role.
    static let initDefaults: [ControlCommand.DefaultAccess] = [
        .init(.publishClientSend, allow: false), .init(.publishClientReceive, allow: true),
        .init(.subscribe, allow: false), .init(.unsubscribe, allow: true),
    ]
    static let initAdminRole = ControlReply.Role(
        rolename: "admin",
        acls: [
            .init(acltype: "publishClientSend", topic: "$CONTROL/dynamic-security/#", allow: true),
            .init(acltype: "publishClientReceive", topic: "$CONTROL/dynamic-security/#", allow: true),
            .init(acltype: "subscribePattern", topic: "$CONTROL/dynamic-security/#", allow: true),
            .init(acltype: "publishClientReceive", topic: "$SYS/#", allow: true),
            .init(acltype: "subscribePattern", topic: "$SYS/#", allow: true),
            .init(acltype: "publishClientReceive", topic: "#", allow: true),
            .init(acltype: "subscribePattern", topic: "#", allow: true),
            .init(acltype: "unsubscribePattern", topic: "#", allow: true),
        ])

    @Test func whatDynsecInitWritesIsCorrected() {
        let corrections = PluginPolicy.corrections(defaults: Self.initDefaults, roles: [Self.initAdminRole])
        #expect(
            corrections == [
                .setDefaultACLAccess(PluginPolicy.defaults),
                .removeRoleACL(role: "admin", type: .publishClientReceive, topic: "$SYS/#"),
                .removeRoleACL(role: "admin", type: .subscribePattern, topic: "$SYS/#"),
                .removeRoleACL(role: "admin", type: .publishClientReceive, topic: "#"),
                .removeRoleACL(role: "admin", type: .subscribePattern, topic: "#"),
                .removeRoleACL(role: "admin", type: .unsubscribePattern, topic: "#"),
            ])
    }

    @Test func aCompliantPluginNeedsNothing() {
        let trimmed = ControlReply.Role(rolename: "admin", acls: Array(Self.initAdminRole.acls!.prefix(3)))
        #expect(PluginPolicy.corrections(defaults: PluginPolicy.defaults, roles: [trimmed]).isEmpty)
    }

    @Test func denyingACLsAreKeptAndUnknownDefaultsAreSet() {
        let role = ControlReply.Role(
            rolename: "ops", acls: [.init(acltype: "publishClientReceive", topic: "safewalk/#", allow: false)])
        #expect(PluginPolicy.corrections(defaults: PluginPolicy.defaults, roles: [role]).isEmpty)
        // An unanswered survey reports no defaults: they are set, not assumed.
        #expect(PluginPolicy.corrections(defaults: [], roles: []) == [.setDefaultACLAccess(PluginPolicy.defaults)])
    }

    @Test func theAdminsRolesAreReadFromGetClient() {
        let replies = [
            ControlReply(command: "getDefaultACLAccess", data: .init(acls: Self.initDefaults)),
            ControlReply(
                command: "getClient",
                data: .init(client: .init(username: "broker-admin", roles: [.init(rolename: "admin")]))),
        ]
        #expect(PluginPolicy.adminRoles(from: replies) == ["admin"])
        #expect(
            PluginPolicy.survey(admin: "broker-admin") == [.getDefaultACLAccess, .getClient(username: "broker-admin")])
    }
}

@Suite("Enforcing the policy at start-up")
struct PolicyEnforcerTests {
    @Test func aFreshlyInitialisedPluginIsCorrectedOnceThenLeftAlone() async throws {
        let plugin = FakePlugin.initialised()
        let enforcer = PolicyEnforcer(plugin: plugin, admin: "broker-admin", logger: Logger(label: "test"))
        try await enforcer.enforce()
        #expect(plugin.state.withLock { $0.defaults.values.allSatisfy { !$0 } })
        #expect(plugin.roles["admin"]?.map(\.topic) == Array(repeating: "$CONTROL/dynamic-security/#", count: 3))
        let batches = plugin.batches.count
        try await enforcer.enforce()
        // The second start only surveys: getDefaultACLAccess + getClient, then getRole.
        #expect(plugin.batches.count == batches + 2)
        #expect(plugin.batches.suffix(2).flatMap { $0 }.allSatisfy { $0.name.hasPrefix("get") })
    }

    @Test func aPluginThatNeverAnswersStopsTheService() async throws {
        let plugin = FakePlugin.initialised()
        plugin.state.withLock { $0.answering = false }
        let enforcer = PolicyEnforcer(plugin: plugin, admin: "broker-admin", logger: Logger(label: "test"), attempts: 2)
        await #expect(throws: BrokerAdminError.policyNotEnforced(attempts: 2)) { try await enforcer.enforce() }
    }
}
