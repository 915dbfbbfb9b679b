import BrokerAdminKit
import Foundation
import Logging
import SafeWalkCore
import SafeWalkMQTT
import SafeWalkService
import TestSupport
import Testing

/// The web app's session logins (issue 20): `createSession` / `deleteSession`, the role
/// `app-{w}`, and their end with `disable` and an erasure.
@Suite("Session logins: intake, plan and service")
struct SessionLoginTests {
    let alice = try! WalkerID("alice")
    let session = "0123456789abcdef"

    func read(_ json: String) -> AccountIntake { AccountIntake.read(Data(json.utf8)) }

    @Test func aSessionLoginIsNamedAfterTheWalkerAndTheSession() {
        #expect(AccountCommand.sessionUsername(for: alice, session: session) == "alice.app-0123456789abcdef")
        #expect(AccountCommand.isSessionID(session))
        for bad in [
            "", "0123456789ABCDEF", "0123456789abcde", "0123456789abcdef0", "0123456789abcdeg", "01234567/9abcdef",
        ] {
            #expect(!AccountCommand.isSessionID(bad), "\(bad)")
        }
    }

    @Test func createSessionNeedsASessionIdAndAPassword() throws {
        let ok = read(
            #"{"v":1,"id":"s1","op":"createSession","user":"alice","session":"\#(session)","password":"derived-password"}"#
        )
        #expect(
            ok
                == .accepted(
                    AccountCommand(
                        id: "s1", op: .createSession, user: alice, password: "derived-password", session: session)))
        #expect(
            read(#"{"v":1,"id":"s2","op":"createSession","user":"alice","password":"derived-password"}"#)
                == .refused(.invalidSession, id: "s2"))
        #expect(
            read(
                #"{"v":1,"id":"s3","op":"createSession","user":"alice","session":"ZZ","password":"derived-password"}"#)
                == .refused(.invalidSession, id: "s3"))
        #expect(
            read(#"{"v":1,"id":"s4","op":"createSession","user":"alice","session":"\#(session)"}"#)
                == .refused(.missingPassword, id: "s4"))
        #expect(
            read(#"{"v":1,"id":"s5","op":"deleteSession","user":"alice","session":"x/#"}"#)
                == .refused(.invalidSession, id: "s5"))
        #expect(
            read(#"{"v":1,"id":"s6","op":"deleteSession","user":"watchdog","session":"\#(session)"}"#)
                == .refused(.serviceUser, id: "s6"))
        #expect(AccountRefusal.invalidSession.code == "invalid_session")
    }

    @Test func aSessionIdWhereNoneIsNeededIsDropped() {
        #expect(
            read(#"{"v":1,"id":"s7","op":"enable","user":"alice","session":"\#(session)"}"#)
                == .accepted(AccountCommand(id: "s7", op: .enable, user: alice)))
    }

    @Test func theAppRoleHasTopicsOfTheWalkerOnly() {
        let steps = AccountPlan.plan(
            for: AccountCommand(id: "x", op: .createSession, user: alice, password: "pw-123456", session: session)
        ).steps.map { $0.map(\.command) }
        #expect(steps.count == 2)
        #expect(steps[0] == [.getClient(username: "alice")])
        #expect(steps[1].first == .createRole(name: "app-alice"))
        #expect(
            steps[1].last
                == .createClient(username: "alice.app-0123456789abcdef", password: "pw-123456", roles: ["app-alice"]))
        var sends: [String] = []
        var subscribes: [String] = []
        var receives: [String] = []
        for case .addRoleACL(let role, let type, let topic, let allow) in steps[1] {
            #expect(role == "app-alice" && allow)
            switch type {
            case .publishClientSend: sends.append(topic)
            case .subscribePattern: subscribes.append(topic)
            case .publishClientReceive: receives.append(topic)
            default: Issue.record("unexpected ACL type \(type)")
            }
        }
        #expect(
            sends.sorted()
                == [
                    "safewalk/alice/action", "safewalk/alice/circle/cmd", "safewalk/alice/contacts/add",
                    "safewalk/alice/contacts/remove", "safewalk/alice/fix", "safewalk/alice/presence",
                    "safewalk/alice/reply",
                ])
        #expect(subscribes == receives)
        #expect(
            Set(subscribes)
                == Set(
                    [
                        // `position/#`, `presence/#`: on a cluster with several watchdogs these end in the
                        // walker's partition (docs/CONTRACT.md); still only the walker's own topics.
                        "status", "position/#", "chat", "alert", "contacts", "contacts/result", "delivery",
                        "action/result", "rejected", "circle", "circle/result", "inbox", "shared/+", "presence/#",
                        "desk",
                    ].map { "safewalk/alice/\($0)" }))
        #expect(
            AccountPlan.plan(for: AccountCommand(id: "y", op: .deleteSession, user: alice, session: session)).steps.map
            {
                $0.map(\.command)
            } == [[.deleteClient(username: "alice.app-0123456789abcdef")]])
    }

    @Test func onlyTheWalkersOwnSessionLoginsAreFound() {
        let clients = [
            "alice", "alice.owntracks", "alice.app-0123456789abcdef", "alice.app-fedcba9876543210",
            "alice.app-nothex", "alicex.app-0123456789abcdef", "bob.app-0123456789abcdef",
        ]
        #expect(
            AccountNames.sessions(of: alice, among: clients) == [
                "alice.app-0123456789abcdef", "alice.app-fedcba9876543210",
            ])
    }

    // MARK: - The service, on a fake plugin

    let bus = InMemoryMessageBus()
    let plugin = FakePlugin.initialised()

    func service() async throws -> BrokerAdminService {
        let logger = Logger(label: "broker-admin-test")
        let reporter = RejectionReporter(service: .brokerAdmin, prefix: "safewalk", bus: bus, logger: logger)
        return BrokerAdminService(
            bus: bus, plugin: plugin, sweeper: RetainedSweeper(bus: bus, quiet: .milliseconds(50)), reporter: reporter,
            prefix: "safewalk", admin: "broker-admin", logger: logger,
            subscriptions: try await BrokerAdminService.subscribe(bus: bus, prefix: "safewalk"), now: { 1_760_000_000 })
    }

    func send(_ service: BrokerAdminService, _ json: String) async throws {
        try await service.handleCommand(MQTTMessage(topic: "safewalk/_accounts/command", string: json))
    }

    var results: [AccountCommandResult] {
        bus.published(matching: "safewalk/_accounts/result").compactMap {
            try? SafeWalkJSON.decode(AccountCommandResult.self, from: $0.payload)
        }
    }

    func createSession(_ service: BrokerAdminService, id: String, user: String = "alice", session: String) async throws
    {
        try await send(
            service,
            #"{"v":1,"id":"\#(id)","op":"createSession","user":"\#(user)","session":"\#(session)","password":"pw-session-1"}"#
        )
    }

    @Test func sessionsNeedAnEnabledWalkerShareOneRoleAndAreDeletedOneByOne() async throws {
        let service = try await service()
        try await createSession(service, id: "s0", session: session)  // no walker yet
        try await send(service, #"{"v":1,"id":"c1","op":"createWalker","user":"alice","password":"pw-alice-1"}"#)
        try await createSession(service, id: "s1", session: session)
        try await createSession(service, id: "s2", session: session)  // again: fine
        try await createSession(service, id: "s3", session: "fedcba9876543210")
        #expect(
            plugin.clients["alice.app-\(session)"] == FakePlugin.Client(password: "pw-session-1", roles: ["app-alice"]))
        #expect(plugin.roles["app-alice"]?.count == 7 + 2 * 15)
        try await send(service, #"{"v":1,"id":"d1","op":"deleteSession","user":"alice","session":"\#(session)"}"#)
        try await send(service, #"{"v":1,"id":"d2","op":"deleteSession","user":"alice","session":"\#(session)"}"#)
        #expect(plugin.clients["alice.app-\(session)"] == nil)
        #expect(plugin.clients["alice.app-fedcba9876543210"] != nil)
        #expect(
            results == [
                AccountCommandResult(id: "s0", ok: false, error: .notFound), AccountCommandResult(id: "c1", ok: true),
                AccountCommandResult(id: "s1", ok: true), AccountCommandResult(id: "s2", ok: true),
                AccountCommandResult(id: "s3", ok: true), AccountCommandResult(id: "d1", ok: true),
                AccountCommandResult(id: "d2", ok: true),
            ])
        try await send(service, #"{"v":1,"id":"x1","op":"disable","user":"alice"}"#)
        #expect(plugin.clients["alice.app-fedcba9876543210"] == nil, "disable ends every session login")
        try await createSession(service, id: "s4", session: session)
        #expect(results.last == AccountCommandResult(id: "s4", ok: false, error: .refused))
    }

    @Test func erasureDeletesEverySessionLoginAndTheRoleButNoOneElses() async throws {
        let service = try await service()
        for user in ["alice", "bob"] {
            try await send(
                service, #"{"v":1,"id":"c-\#(user)","op":"createWalker","user":"\#(user)","password":"pw-12345678"}"#)
            try await createSession(service, id: "s-\(user)-1", user: user, session: session)
            try await createSession(service, id: "s-\(user)-2", user: user, session: "fedcba9876543210")
        }
        try await service.handleErasure(
            MQTTMessage(topic: "safewalk/_accounts/erase/broker-admin", string: #"{"v":1,"id":"e1","user":"alice"}"#))
        #expect(plugin.clients.keys.filter { $0.hasPrefix("alice") }.isEmpty)
        #expect(plugin.roles["app-alice"] == nil)
        #expect(
            Set(plugin.clients.keys.filter { $0.hasPrefix("bob") })
                == ["bob", "bob.app-\(session)", "bob.app-fedcba9876543210"])
        #expect(plugin.roles["app-bob"] != nil)
    }
}
