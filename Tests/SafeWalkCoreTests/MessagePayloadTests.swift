import Foundation
import SafeWalkCore
import Testing

@Suite struct MessagePayloadTests {
    @Test func positionIsAFlatFixWithMovement() throws {
        let position = PositionUpdate(fix: sampleFix, moved: false, lastMovedAt: t0 - 90)
        let object = try jsonObject(position)
        #expect(object["lat"] as? Double == 30.2849)
        #expect(object["moved"] as? Bool == false)
        #expect(object["lastMovedAt"] as? Double == t0 - 90)
        // Anyone who only wants the fix can read the position as one.
        #expect(try SafeWalkJSON.decode(LocationFix.self, from: SafeWalkJSON.encode(position)) == sampleFix)
    }

    @Test func positionNeedsItsMovementFields() throws {
        let fixOnly = try SafeWalkJSON.encode(sampleFix)
        #expect(decodeError(PositionUpdate.self, fixOnly) == .missingField("moved"))
    }

    @Test func replyQuickReplyFlagIsOptional() throws {
        let reply = try SafeWalkJSON.decode(Reply.self, from: json(#"{"v":1,"text":"hi","tst":1}"#))
        #expect(reply == Reply(text: "hi", quickReply: nil, tst: 1))
    }

    @Test func chatMessagesAreNeverFromTheUser() throws {
        let object = try jsonObject(ChatMessage(id: "m", text: "Hi", tst: t0))
        #expect(object["isUser"] as? Bool == false)
    }

    @Test func contactResultsSayOkOrGiveAClearError() throws {
        let ok = ContactResult(operation: .remove, outcome: .ok(contactID: "c9"))
        #expect(try jsonText(ok) == #"{"contactId":"c9","ok":true,"operation":"remove","v":1}"#)
        let failed = ContactResult(operation: .add, outcome: .failed(message: "The number contains letters."))
        #expect(try jsonText(failed) == #"{"error":"The number contains letters.","ok":false,"operation":"add","v":1}"#)
        #expect(try SafeWalkJSON.decode(ContactResult.self, from: SafeWalkJSON.encode(failed)) == failed)
    }

    @Test func aFailedContactResultWithoutAnErrorIsRefused() {
        #expect(
            decodeError(ContactResult.self, json(#"{"v":1,"operation":"add","ok":false}"#)) == .missingField("error"))
    }

    @Test func contactsStoreNormalisedNumbersAndKeepUndialableOnesWithAReason() throws {
        let good = Contact(id: "1", name: "Mum", rawPhone: "(512) 471-4441")
        #expect(good == Contact(id: "1", name: "Mum", phone: "+15124714441", dialable: true, reason: nil))
        let bad = Contact(id: "2", name: "Dad", rawPhone: "call dad")
        #expect(bad == Contact(id: "2", name: "Dad", phone: "call dad", dialable: false, reason: .containsLetters))
        let object = try jsonObject(ContactList(contacts: [bad]))
        let first = try #require((object["contacts"] as? [[String: Any]])?.first)
        #expect(first["reason"] as? String == "containsLetters")
    }

    @Test func statusStatesUseTheDesignWords() throws {
        #expect(WatchState.allCases.map(\.rawValue) == ["safe", "checking", "alert"])
        let status = WatchStatus(state: .safe, watching: false, since: t0)
        #expect(try jsonText(status) == #"{"since":1700000000,"state":"safe","v":1,"watching":false}"#)
    }

    @Test func rejectionsCarryCodesNeverPayloads() throws {
        let rejection = Rejection(
            service: .locationIngest, reason: FixRejection.tooOld.code, topicKind: .owntracks, walker: nil, at: t0)
        let object = try jsonObject(rejection)
        #expect(Set(object.keys) == ["v", "service", "reason", "topicKind", "at"])
        #expect(object["topicKind"] as? String == "owntracks")
        #expect(object["reason"] as? String == "too_old")
    }
}

@Suite struct PresenceTests {
    @Test func parsesTheBareWords() {
        #expect(Presence(payload: json("online")) == .online)
        #expect(Presence(payload: json("offline")) == .offline)
    }

    @Test func toleratesSurroundingWhitespace() {
        #expect(Presence(payload: json("offline\n")) == .offline)
        #expect(Presence(payload: json("  online ")) == .online)
    }

    @Test(arguments: ["Online", "OFFLINE", "", "on line", #"{"v":1}"#, #""online""#, "away"])
    func refusesAnythingElse(text: String) {
        #expect(Presence(payload: json(text)) == nil)
    }

    @Test func refusesInvalidUTF8() {
        #expect(Presence(payload: Data([0x6F, 0xFF, 0xFE])) == nil)
    }

    @Test func publishesTheBareWord() {
        #expect(Presence.offline.payload == json("offline"))
        #expect(Presence.online.payload == json("online"))
    }
}
