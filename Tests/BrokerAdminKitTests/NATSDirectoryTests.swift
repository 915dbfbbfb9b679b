import BrokerAdminKit
import SafeWalkBrokerPolicy
import SafeWalkCore
import TestSupport
import Testing

@Suite("A NATS cluster's logins, changed by the plugin's commands")
struct NATSDirectoryTests {
    let alice = try! WalkerID("alice")
    let acl = try! BrokerACL(
        parsing: String(
            contentsOf: SecuredBroker.repositoryRoot.appendingPathComponent("mosquitto/acl"), encoding: .utf8))

    /// Every step of `command`'s plan, applied in order; the replies' errors, step by step.
    func carryOut(_ command: AccountCommand, on directory: inout NATSDirectory, sessions: [String] = [])
        -> [[String?]]
    {
        AccountPlan.plan(for: command, sessions: sessions).steps.map { step in
            step.map { planned in directory.apply(planned.command, hash: { "hash(\($0))" }).0.error }
        }
    }

    func login(_ name: String, in directory: NATSDirectory) -> NATSAuthorization.Login? {
        directory.logins(acl: acl).first { $0.user == name }
    }

    @Test func aWalkerHasTheACLPatternsWithItsNameAndNoPasswordButItsHash() {
        var directory = NATSDirectory()
        let errors = carryOut(AccountCommand(id: "1", op: .createWalker, user: alice, password: "pw-1"), on: &directory)
        #expect(errors == [[nil]])
        let walker = login("alice", in: directory)
        #expect(walker?.password == .bcrypt("hash(pw-1)"))
        #expect(walker?.rules == acl.rules(for: "alice"))
        #expect(
            carryOut(AccountCommand(id: "2", op: .createWalker, user: alice, password: "pw-2"), on: &directory) == [
                [PluginError.clientExists]
            ])
        #expect(login("alice", in: directory)?.password == .bcrypt("hash(pw-1)"))
    }

    @Test func theDeviceAndAnAppSessionHaveOnlyTheirRolesRights() throws {
        var directory = NATSDirectory()
        _ = carryOut(AccountCommand(id: "1", op: .createWalker, user: alice, password: "pw-1"), on: &directory)
        _ = carryOut(
            AccountCommand(id: "2", op: .setDevicePassword, user: alice, password: "device-pw"), on: &directory)
        let session = "0123456789abcdef"
        _ = carryOut(
            AccountCommand(id: "3", op: .createSession, user: alice, password: "session-pw", session: session),
            on: &directory)
        let device = try #require(login("alice.owntracks", in: directory))
        #expect(
            Set(device.rules) == [
                BrokerACL.Rule(.write, "owntracks/alice/+"), BrokerACL.Rule(.read, "owntracks/alice/+/cmd"),
            ])
        let app = try #require(login("alice.app-\(session)", in: directory))
        #expect(Set(app.rules.filter { $0.access == .write }.map(\.topic)) == Set(AppTopics.inputTopics(of: alice)))
        #expect(Set(app.rules.filter { $0.access == .read }.map(\.topic)) == Set(AppTopics.readFilters(of: alice)))
        // Both render: every topic of theirs has a NATS subject.
        _ = try NATSAuthorization.block(acl: acl, logins: directory.logins(acl: acl))
    }

    @Test func aDisabledWalkerAndDeviceAreLeftOutAndEnablingBringsThemBack() {
        var directory = NATSDirectory()
        _ = carryOut(AccountCommand(id: "1", op: .createWalker, user: alice, password: "pw-1"), on: &directory)
        _ = carryOut(
            AccountCommand(id: "2", op: .setDevicePassword, user: alice, password: "device-pw"), on: &directory)
        #expect(carryOut(AccountCommand(id: "3", op: .disable, user: alice), on: &directory) == [[nil, nil]])
        #expect(directory.logins(acl: acl).isEmpty)
        #expect(carryOut(AccountCommand(id: "4", op: .enable, user: alice), on: &directory) == [[nil, nil]])
        #expect(directory.logins(acl: acl).map(\.user) == ["alice", "alice.owntracks"])
    }

    @Test func anErasureLeavesNothingOfTheWalker() {
        var directory = NATSDirectory()
        _ = carryOut(AccountCommand(id: "1", op: .createWalker, user: alice, password: "pw-1"), on: &directory)
        _ = carryOut(
            AccountCommand(id: "2", op: .setDevicePassword, user: alice, password: "device-pw"), on: &directory)
        let session = AccountCommand.sessionUsername(for: alice, session: "0123456789abcdef")
        _ = carryOut(
            AccountCommand(id: "3", op: .createSession, user: alice, password: "s-pw", session: "0123456789abcdef"),
            on: &directory)
        for command in AccountPlan.erasure(of: alice, sessions: [session]) {
            #expect(directory.apply(command.command, hash: { $0 }).0.error == nil, "\(command.command)")
        }
        #expect(directory == NATSDirectory())
    }

    @Test func deletingARoleTakesItsRightsFromItsHolders() {
        var directory = NATSDirectory()
        _ = directory.apply(.createRole(name: "r"), hash: { $0 })
        _ = directory.apply(.addRoleACL(role: "r", type: .publishClientSend, topic: "a/b", allow: true), hash: { $0 })
        _ = directory.apply(.createClient(username: "x.device", password: "p", roles: ["r"]), hash: { $0 })
        #expect(login("x.device", in: directory)?.rules == [BrokerACL.Rule(.write, "a/b")])
        let (reply, change) = directory.apply(.deleteRole(name: "r"), hash: { $0 })
        #expect(reply.error == nil)
        #expect(change == NATSDirectory.Change(logins: ["x.device"], roles: ["r"]))
        #expect(login("x.device", in: directory)?.rules == [])
    }

    @Test func theDefaultIsDenyAndCannotBeMadeToAllow() {
        var directory = NATSDirectory()
        let defaults = directory.apply(.getDefaultACLAccess, hash: { $0 }).0.data?.acls ?? []
        #expect(PluginPolicy.corrections(defaults: defaults, roles: []) == [])
        #expect(directory.apply(.setDefaultACLAccess(PluginPolicy.defaults), hash: { $0 }).0.error == nil)
        #expect(
            directory.apply(.setDefaultACLAccess([.init(.subscribe, allow: true)]), hash: { $0 }).0.error
                == NATSDirectory.defaultsFixed)
    }

    /// The same commands on the plugin's model in these tests (``FakePlugin``, from the plugin's
    /// sources) and on the directory: the same answers, error for error.
    @Test func itAnswersAsThePluginDoes() async throws {
        let plugin = FakePlugin()
        var directory = NATSDirectory()
        let commands: [ControlCommand] = [
            .getClient(username: "alice"), .createClient(username: "alice", password: "p"),
            .createClient(username: "alice", password: "q"), .setClientPassword(username: "bob", password: "p"),
            .createClient(username: "d", password: "p", roles: ["missing"]), .createRole(name: "r"),
            .createRole(name: "r"), .addRoleACL(role: "r", type: .subscribePattern, topic: "a/#", allow: true),
            .addRoleACL(role: "r", type: .subscribePattern, topic: "a/#", allow: true),
            .addRoleACL(role: "nope", type: .subscribePattern, topic: "a/#", allow: true),
            .createClient(username: "d", password: "p", roles: ["r"]), .getClient(username: "d"),
            .removeRoleACL(role: "r", type: .publishClientSend, topic: "a/#"),
            .removeRoleACL(role: "r", type: .subscribePattern, topic: "a/#"), .getRole(name: "r"),
            .disableClient(username: "alice"), .getClient(username: "alice"), .enableClient(username: "ghost"),
            .deleteRole(name: "r"), .deleteRole(name: "r"), .getClient(username: "d"), .listClients,
            .deleteClient(username: "alice"), .deleteClient(username: "alice"),
        ]
        let expected = try await plugin.perform(commands)
        let replies = commands.map { directory.apply($0, hash: { $0 }).0 }
        #expect(replies.map(\.error) == expected.map(\.error))
        #expect(replies.map(\.data?.clients) == expected.map(\.data?.clients))
        #expect(replies.map(\.data?.client?.roles) == expected.map(\.data?.client?.roles))
        #expect(replies.map(\.data?.role) == expected.map(\.data?.role))
    }
}
