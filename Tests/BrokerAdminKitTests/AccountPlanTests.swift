import BrokerAdminKit
import SafeWalkCore
import Testing

@Suite("Account commands as plugin commands, and the plugin's answers as results")
struct AccountPlanTests {
    let alice = try! WalkerID("alice")

    func commands(_ op: AccountCommand.Operation, password: String? = "pw-123456") -> [[ControlCommand]] {
        AccountPlan.plan(for: AccountCommand(id: "x", op: op, user: alice, password: password)).steps.map {
            $0.map(\.command)
        }
    }

    @Test func aWalkerIsAPluginClientWithNoRole() {
        #expect(commands(.createWalker) == [[.createClient(username: "alice", password: "pw-123456")]])
        #expect(commands(.setPassword) == [[.setClientPassword(username: "alice", password: "pw-123456")]])
    }

    @Test func disableAndEnableCoverTheWalkerAndItsDevice() {
        #expect(
            commands(.disable, password: nil) == [
                [.disableClient(username: "alice"), .disableClient(username: "alice.owntracks")]
            ])
        #expect(
            commands(.enable, password: nil) == [
                [.enableClient(username: "alice"), .enableClient(username: "alice.owntracks")]
            ])
    }

    @Test func theDeviceLoginIsMadeAfreshWithItsOwnRole() {
        #expect(
            commands(.setDevicePassword) == [
                [.getClient(username: "alice")],
                [
                    .deleteClient(username: "alice.owntracks"),
                    .createRole(name: "device-alice"),
                    .addRoleACL(
                        role: "device-alice", type: .publishClientSend, topic: "owntracks/alice/+", allow: true),
                    .addRoleACL(
                        role: "device-alice", type: .subscribePattern, topic: "owntracks/alice/+/cmd", allow: true),
                    .addRoleACL(
                        role: "device-alice", type: .publishClientReceive, topic: "owntracks/alice/+/cmd", allow: true),
                    .createClient(username: "alice.owntracks", password: "pw-123456", roles: ["device-alice"]),
                ],
            ])
        #expect(
            commands(.deleteDevice, password: nil) == [
                [.deleteClient(username: "alice.owntracks"), .deleteRole(name: "device-alice")]
            ])
    }

    @Test func erasureDeletesEveryLoginAndBothRoles() {
        #expect(
            AccountPlan.erasure(of: alice, sessions: ["alice.app-0123456789abcdef"]).map(\.command) == [
                .deleteClient(username: "alice"), .deleteClient(username: "alice.owntracks"),
                .deleteClient(username: "alice.app-0123456789abcdef"), .deleteRole(name: "device-alice"),
                .deleteRole(name: "app-alice"),
            ])
    }

    func failure(_ op: AccountCommand.Operation, step: Int = 0, errors: [String?]) -> AccountCommandResult.Failure? {
        let plan = AccountPlan.plan(for: AccountCommand(id: "x", op: op, user: alice, password: "pw-123456"))
        let batch = plan.steps[step]
        let replies = zip(batch, errors).map { ControlReply(command: $0.command.name, error: $1) }
        return AccountPlan.failure(of: batch, replies: replies)
    }

    @Test func thePluginsErrorsBecomeTheContractsFailures() {
        #expect(failure(.createWalker, errors: [nil]) == nil)
        #expect(failure(.createWalker, errors: [PluginError.clientExists]) == .exists)
        #expect(failure(.setPassword, errors: [PluginError.clientNotFound]) == .notFound)
        #expect(failure(.disable, errors: [PluginError.clientNotFound, PluginError.clientNotFound]) == .notFound)
        #expect(failure(.setDevicePassword, step: 0, errors: [PluginError.clientNotFound]) == .notFound)
        #expect(failure(.createWalker, errors: ["Internal error"]) == .brokerError)
        #expect(failure(.setPassword, errors: ["Empty password is not allowed"]) == .brokerError)
    }

    @Test func whatIsAlreadyAsWantedIsFine() {
        // A walker without a device is disabled; a device role that exists is kept.
        #expect(failure(.disable, errors: [nil, PluginError.clientNotFound]) == nil)
        #expect(
            failure(
                .setDevicePassword, step: 1,
                errors: [
                    PluginError.clientNotFound, PluginError.roleExists, PluginError.aclExists, PluginError.aclExists,
                    nil, nil,
                ])
                == nil)
        #expect(failure(.deleteDevice, errors: [PluginError.clientNotFound, PluginError.roleNotFound]) == nil)
        let erasure = AccountPlan.erasure(of: alice)
        let gone = [
            PluginError.clientNotFound, PluginError.clientNotFound, PluginError.roleNotFound, PluginError.roleNotFound,
        ]
        #expect(
            AccountPlan.failure(
                of: erasure, replies: zip(erasure, gone).map { ControlReply(command: $0.command.name, error: $1) })
                == nil)
    }

    @Test func aDisabledWalkerGetsNoDeviceLogin() {
        let step = AccountPlan.plan(
            for: AccountCommand(id: "x", op: .setDevicePassword, user: alice, password: "pw-123456")
        )
        .steps[0]
        let disabled = ControlReply(
            command: "getClient", data: .init(client: .init(username: "alice", disabled: true)))
        #expect(AccountPlan.failure(of: step, replies: [disabled]) == .refused)
        let enabled = ControlReply(command: "getClient", data: .init(client: .init(username: "alice")))
        #expect(AccountPlan.failure(of: step, replies: [enabled]) == nil)
    }

    @Test func aShortAnswerIsABrokerError() {
        let step = AccountPlan.erasure(of: alice)
        #expect(AccountPlan.failure(of: step, replies: [ControlReply(command: "deleteClient")]) == .brokerError)
    }
}
