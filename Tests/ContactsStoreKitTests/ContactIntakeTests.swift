import ContactsStoreKit
import Foundation
import SafeWalkCore
import SafeWalkService
import Testing

@Suite struct ContactIntakeTests {
    func read(_ topic: String, _ payload: String) -> ContactIntake {
        ContactIntake.read(topic: topic, payload: Data(payload.utf8), prefix: "safewalk")
    }

    @Test func commandsAreReadForTheTopicWalker() throws {
        let alice = try WalkerID("alice")
        #expect(
            read("safewalk/alice/contacts/add", #"{"v":1,"name":"Mum","phone":"5124714441"}"#)
                == .command(alice, .add(ContactAdd(name: "Mum", phone: "5124714441"))))
        #expect(
            read("safewalk/alice/contacts/remove", #"{"v":1,"id":"c1"}"#)
                == .command(alice, .remove(ContactRemove(id: "c1"))))
    }

    @Test func hostileCommandsAreUnreadableWithAReason() throws {
        let alice = try WalkerID("alice")
        #expect(
            read("safewalk/alice/contacts/add", #"{"v":1,"name":"Mum"}"#)
                == .unreadable(alice, .add, .missingField("phone")))
        #expect(
            read("safewalk/alice/contacts/add", #"{"v":1,"name":5,"phone":"1"}"#)
                == .unreadable(alice, .add, .wrongType("name")))
        #expect(read("safewalk/alice/contacts/remove", "{") == .unreadable(alice, .remove, .malformed))
        let huge = #"{"v":1,"name":"\#(String(repeating: "x", count: 5000))","phone":"1"}"#
        guard case .unreadable(_, .add, .tooLarge) = read("safewalk/alice/contacts/add", huge) else {
            Issue.record("a 5 KB command was read"); return
        }
    }

    @Test func anInvalidWalkerHasNobodyToAnswer() {
        #expect(read("safewalk/wälker/contacts/add", "{}") == .invalidTopic(kind: .contactsAdd))
        #expect(read("safewalk/_service/contacts/remove", "{}") == .invalidTopic(kind: .contactsRemove))
    }

    @Test func theLimitIsConfigurable() throws {
        let rules = try ContactRules(
            configuration: ServiceConfiguration(
                service: .contactsStore,
                environment: ["SAFEWALK_CONTACTS_LIMIT": "5"]))
        #expect(rules.limit == 5)
        #expect(
            try ContactRules(configuration: ServiceConfiguration(service: .contactsStore, environment: [:])).limit == 20
        )
        #expect(throws: ConfigurationError.self) {
            try ContactRules(
                configuration: ServiceConfiguration(
                    service: .contactsStore, environment: ["SAFEWALK_CONTACTS_LIMIT": "0"]))
        }
    }
}
