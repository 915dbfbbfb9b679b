import Foundation
import SafeWalkCore
import SafeWalkWebKit
import Testing

/// What becomes a push, and what it says.
@Suite struct PushTriggerTests {
    static let bob = WalkerID(validating: "bob")!

    @Test func aCheckInPromptPushesUrgentlyUntilItsDeadline() throws {
        let prompt = CheckInPrompt(id: "p1", at: 1_000, replyBy: 1_120)
        let push = try #require(PushTriggers.message(for: .prompt(prompt), now: 1_001))
        #expect(push.body.title == "SafeWalk: check in — are you okay?")
        #expect(push.body.body == "Tap to tell SafeWalk you're okay." && push.body.tag == "checkin")
        #expect(push.urgency == .high && push.ttl == 119)
        #expect(PushTriggers.message(for: .prompt(prompt), now: 1_120) == nil, "too late to be any use")
    }

    @Test func theNotifiersAlertIsPushedAsItIs() throws {
        let alert = DeviceAlert(title: "Mum is on it", body: "Mum is on it: they got your alert.", actions: [])
        let push = try #require(PushTriggers.message(for: .alert(alert), now: 0))
        #expect(push.body.title == "Mum is on it" && push.body.body == "Mum is on it: they got your alert.")
        #expect(push.body.tag == "alert" && push.body.url == "/" && push.urgency == .high)
    }

    @Test func anotherUsersAlertWakesThePhone() throws {
        let event = InboxEvent(
            id: "e-2", type: .alert, from: Self.bob, at: 1_000, text: "bob needs help (panic, red).", level: .red,
            reason: .panic)
        let push = try #require(PushTriggers.message(for: .inbox(event), now: 1_002))
        #expect(push.body.title == "SafeWalk: bob needs help" && push.body.body == "bob needs help (panic, red).")
        #expect(push.urgency == .high && push.body.tag == "inbox-alert-bob")
    }

    @Test func aFollowRequestIsNotUrgent() throws {
        let event = InboxEvent(
            id: "e-1", type: .followRequest, from: Self.bob, at: 1_000, text: "bob wants to follow you.")
        let push = try #require(PushTriggers.message(for: .inbox(event), now: 1_000))
        #expect(push.urgency == .normal && push.body.title == "SafeWalk")
    }

    @Test func anInboxSentAgainDoesNotPushOldEvents() {
        let event = InboxEvent(id: "e-1", type: .checkInRequest, from: Self.bob, at: 1_000, text: "bob asks.")
        #expect(PushTriggers.message(for: .inbox(event), now: 1_000 + PushTriggers.inboxFreshness + 1) == nil)
    }

    @Test func longTextIsClippedSoAPushFitsOneRecord() throws {
        let alert = DeviceAlert(
            title: String(repeating: "t", count: 500), body: String(repeating: "é", count: 5_000), actions: [])
        let push = try #require(PushTriggers.message(for: .alert(alert), now: 0))
        #expect(push.body.title.count == PushMessage.maxTitle && push.body.body.count == PushMessage.maxBody)
        #expect(try push.json().count < WebPushEncryption.maxPlaintext)
    }
}
