import Foundation
import NotifierKit
import SafeWalkCore
import SafeWalkMQTT
import Testing

@Suite("Escalations and contact lists are validated before use")
struct NotifierIntakeTests {
    func classify(_ topic: String, _ payload: Data) -> Result<NotifierIntake.Input, NotifierIntake.Refusal> {
        NotifierIntake.classify(MQTTMessage(topic: topic, payload: payload), prefix: "safewalk")
    }

    func code(_ result: Result<NotifierIntake.Input, NotifierIntake.Refusal>) -> String? {
        if case .failure(let refusal) = result { return refusal.code }
        return nil
    }

    @Test func aValidEscalationIsAccepted() throws {
        let event = Fixtures.escalation()
        #expect(try classify("safewalk/alex/escalation", SafeWalkJSON.encode(event)) == .success(.escalation(event)))
    }

    @Test func anEscalationForAnotherWalkerIsRejected() throws {
        let payload = try SafeWalkJSON.encode(Fixtures.escalation(walker: try WalkerID("mallory")))
        #expect(code(classify("safewalk/alex/escalation", payload)) == "walker_mismatch")
    }

    @Test func garbageMissingFieldsAndBadIdsAreRejected() throws {
        #expect(code(classify("safewalk/alex/escalation", Data("not json".utf8))) == "malformed")
        #expect(code(classify("safewalk/alex/escalation", Data(#"{"v":1,"id":"x"}"#.utf8))) == "missing_field")
        let spaced = try SafeWalkJSON.encode(Fixtures.escalation("has space"))
        #expect(code(classify("safewalk/alex/escalation", spaced)) == "invalid_id")
        #expect(code(classify("safewalk/alex/escalation", Data(repeating: 0x20, count: 20_000))) == "too_large")
    }

    @Test func contactListsAreAcceptedAndAnEmptyRetainedMessageClearsThem() throws {
        let list = ContactList(contacts: Fixtures.threeWithOneUndialable)
        #expect(
            try classify("safewalk/alex/contacts", SafeWalkJSON.encode(list))
                == .success(.contacts(Fixtures.walker, list.contacts)))
        #expect(classify("safewalk/alex/contacts", Data()) == .success(.contacts(Fixtures.walker, nil)))
    }

    @Test func oversizedContactListsAreRejectedNotTruncated() throws {
        let many = ContactList(
            contacts: (0..<51).map { Contact(id: "c\($0)", name: "n", rawPhone: "5125550\($0 + 100)") })
        #expect(code(try classify("safewalk/alex/contacts", SafeWalkJSON.encode(many))) == "too_many_contacts")
    }
}
