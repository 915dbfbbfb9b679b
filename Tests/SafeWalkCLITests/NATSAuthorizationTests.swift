import Foundation
import SafeWalkCore
import TestSupport
import Testing

@testable import SafeWalkBrokerPolicy
@testable import SafeWalkCLI

@Suite struct NATSAuthorizationTests {
    @Test func topicFiltersBecomeTheSubjectsNATSCarriesThemOn() {
        #expect(NATSAuthorization.subjects(of: "safewalk/+/position") == ["safewalk.*.position"])
        #expect(NATSAuthorization.subjects(of: "safewalk/alice/shared/+") == ["safewalk.alice.shared.*"])
        // MQTT's `#` also matches its parent level, which NATS's `>` does not.
        #expect(NATSAuthorization.subjects(of: "owntracks/alice/#") == ["owntracks.alice", "owntracks.alice.>"])
        #expect(NATSAuthorization.subjects(of: "#") == [">"])
        // What NATS would read otherwise: a `.` (a level separator there), `$`, an empty level.
        #expect(NATSAuthorization.subjects(of: "safewalk/a.b/fix") == nil)
        #expect(NATSAuthorization.subjects(of: "$SYS/broker") == nil)
        #expect(NATSAuthorization.subjects(of: "safewalk//fix") == nil)
    }

    @Test func theACLIsReadAsMosquittoReadsIt() throws {
        let acl = try BrokerACL(
            parsing: """
                # comment
                pattern write safewalk/%u/fix
                pattern read safewalk/%u/status

                user watchdog
                topic read safewalk/+/position
                topic safewalk/_x
                """)
        #expect(acl.patterns == [.init(.write, "safewalk/%u/fix"), .init(.read, "safewalk/%u/status")])
        #expect(
            acl.users == [
                .init(name: "watchdog", rules: [.init(.read, "safewalk/+/position"), .init(.readwrite, "safewalk/_x")])
            ])
        #expect(
            acl.rules(for: "alice") == [.init(.write, "safewalk/alice/fix"), .init(.read, "safewalk/alice/status")])
        #expect(acl.rules(for: "watchdog").count == 4)
    }

    @Test func whatTheReaderDoesNotKnowIsRefusedNotGuessed() {
        #expect(throws: BrokerACL.ParseError(line: 1, reason: "a `topic` line before any `user` (anonymous rules)")) {
            try BrokerACL(parsing: "topic read #")
        }
        #expect(throws: BrokerACL.ParseError.self) { try BrokerACL(parsing: "pattern read safewalk/%c/x") }
        #expect(throws: BrokerACL.ParseError.self) { try BrokerACL(parsing: "include /etc/more") }
        #expect(throws: BrokerACL.ParseError.self) { try BrokerACL(parsing: "user a\ntopic sometimes a/b") }
    }

    @Test func theProjectsACLGivesEachUserOnNATSExactlyItsTopics() throws {
        let text = try String(
            contentsOf: SecuredBroker.repositoryRoot.appendingPathComponent("mosquitto/acl"), encoding: .utf8)
        let block = try NATSAuthorization.block(
            acl: try BrokerACL(parsing: text), walkers: [.init(id: WalkerID("alice"), password: "pw-1")])
        let watchdog = try #require(entry(of: "watchdog", in: block))
        #expect(watchdog.contains("password: $WATCHDOG_MQTT_PASSWORD"))
        #expect(watchdog.contains(#"subscribe: { allow: ["safewalk.*.position""#))
        #expect(watchdog.contains(#""safewalk.*.escalation""#))
        let alice = try #require(entry(of: "alice", in: block))
        #expect(alice.contains(#"password: "pw-1""#))
        #expect(
            alice.contains(
                #"publish: { allow: ["safewalk.alice.fix", "safewalk.alice.fix.*", "safewalk.alice.reply", "safewalk.alice.reply.*""#
            ))
        #expect(alice.contains(#""safewalk.alice.status""#))
        // A walker writes her own inputs only: not her status, not anyone else's topics.
        let alicePublishes = try #require(alice.split(separator: "\n").first { $0.contains("publish:") })
        #expect(!alicePublishes.contains("status") && !alicePublishes.contains("escalation"))
        #expect(!alice.contains("safewalk.*"))
        // Every login is MQTT only, and every service of the ACL is there.
        #expect(block.components(separatedBy: #"allowed_connection_types: ["MQTT"]"#).count - 1 == 10)
        #expect(entry(of: "contacts-store", in: block)?.contains("$CONTACTS_STORE_MQTT_PASSWORD") == true)
    }

    /// nats-server checks a publish against the subject its mappings made of it, so a right to
    /// publish a partitioned input covers its routed form (`safewalk.alice.action.1`); nothing else
    /// gains a level.
    @Test func aRightToPublishAPartitionedInputCoversItsRoutedForm() throws {
        #expect(NATSAuthorization.routedForm(of: "safewalk/alice/action") == "safewalk/alice/action/+")
        #expect(NATSAuthorization.routedForm(of: "safewalk/%u/presence") == "safewalk/%u/presence/+")
        #expect(NATSAuthorization.routedForm(of: "safewalk/+/position") == "safewalk/+/position/+")
        #expect(
            NATSAuthorization.routedForm(of: "safewalk/_escalations/received/+")
                == "safewalk/_escalations/received/+/+")
        for topic in [
            "safewalk/alice/contacts/add", "safewalk/+/action/result", "safewalk/+/position/#", "safewalk/+/status",
        ] {
            #expect(NATSAuthorization.routedForm(of: topic) == nil, "\(topic)")
        }
        let text = try String(
            contentsOf: SecuredBroker.repositoryRoot.appendingPathComponent("mosquitto/acl"), encoding: .utf8)
        let block = try NATSAuthorization.block(
            acl: try BrokerACL(parsing: text), walkers: [.init(id: WalkerID("alice"), password: "pw-1")])
        let publishes = { (user: String) in
            try #require(self.entry(of: user, in: block)?.split(separator: "\n").first { $0.contains("publish:") })
        }
        #expect(try publishes("alice").contains(#""safewalk.alice.action", "safewalk.alice.action.*""#))
        #expect(try !publishes("alice").contains("safewalk.alice.contacts.add.*"))
        #expect(try publishes("location-ingest").contains(#""safewalk.*.position", "safewalk.*.position.*""#))
        #expect(try publishes("notifier").contains(#""safewalk._escalations.received.*.*""#))
    }

    @Test func nothingToPublishIsDenyAllNotAnEmptyAllowList() throws {
        let reader = try NATSAuthorization.block(
            acl: try BrokerACL(parsing: "user reader\ntopic read a/b"), walkers: [])
        #expect(reader.contains(#"publish: { deny: [">"] }"#))
        #expect(reader.contains(#"subscribe: { allow: ["a.b"] }"#))
        let writer = try NATSAuthorization.block(
            acl: try BrokerACL(parsing: "user writer\ntopic write a/b"), walkers: [])
        #expect(writer.contains(#"subscribe: { deny: [">"] }"#))
        #expect(!reader.contains("allow: []") && !writer.contains("allow: []"))
    }

    @Test func walkersPasswordsAreQuotedAndNeverAServiceName() throws {
        let acl = try BrokerACL(parsing: "pattern write safewalk/%u/fix\nuser watchdog\ntopic read a")
        let block = try NATSAuthorization.block(acl: acl, walkers: [.init(id: WalkerID("bob"), password: #"a"b\c"#)])
        #expect(block.contains(#"password: "a\"b\\c""#))
        #expect(throws: NATSAuthorization.RenderError.loginIsService("watchdog")) {
            try NATSAuthorization.block(acl: acl, walkers: [.init(id: WalkerID("watchdog"), password: "x")])
        }
        #expect(throws: NATSAuthorization.RenderError.unprintablePassword("bob")) {
            try NATSAuthorization.block(acl: acl, walkers: [.init(id: WalkerID("bob"), password: "a\nb")])
        }
    }

    @Test func theWalkersFileIsIdAndPasswordPerLine() throws {
        let logins = try WalkerLogins.read("# logins\nalice s3cret pass\n\nbob pw\n")
        #expect(logins.map(\.id.rawValue) == ["alice", "bob"])
        #expect(logins.first?.password == "s3cret pass")
        #expect(throws: CLIError.self) { try WalkerLogins.read("alice\n") }
        #expect(throws: CLIError.self) { try WalkerLogins.read("al/ice pw\n") }
        #expect(throws: CLIError.self) { try WalkerLogins.read("alice a\nalice b\n") }
    }

    /// The lines of one user's entry in a rendered block.
    private func entry(of user: String, in block: String) -> String? {
        guard let start = block.range(of: "user: \"\(user)\"") else { return nil }
        let rest = block[start.lowerBound...]
        return String(rest[..<(rest.range(of: "\n    }")?.lowerBound ?? rest.endIndex)])
    }
}
