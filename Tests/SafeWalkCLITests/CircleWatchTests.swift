import Foundation
import SafeWalkCore
import SafeWalkMQTT
import Testing

@testable import SafeWalkCLI

/// `safewalk watch` and the circle: which topics it shows, how it reads `{w}/shared/{other}`.
@Suite struct CircleWatchTests {
    let alice = try! WalkerID("alice")
    let bob = try! WalkerID("bob")
    let plain = WatchFormatter(style: Style(enabled: false), timeZone: TimeZone(identifier: "UTC")!)
    let now: EpochSeconds = 1_759_976_040  // 2025-10-09 02:14:00 UTC

    @Test func aSharedTopicNamesViewerAndOther() {
        #expect(
            SharedTopic.parse("safewalk/alice/shared/bob", prefix: "safewalk")
                == SharedTopic(viewer: alice, other: bob))
        for prefix in ["safewalk", "tenant-a/safewalk"] {
            let topic = Topic.shared(for: alice, of: bob, prefix: prefix)
            #expect(SharedTopic.parse(topic, prefix: prefix) == SharedTopic(viewer: alice, other: bob), "\(topic)")
        }
    }

    @Test func hostileTopicsAreNotSharedViews() {
        for topic in [
            "safewalk/alice/shared/", "safewalk/alice/shared", "safewalk//shared/bob", "safewalk/alice/shared/+",
            "safewalk/alice/shared/#", "safewalk/+/shared/bob", "safewalk/alice/shared/bob/extra",
            "safewalk/alice/shared/bob/", "/safewalk/alice/shared/bob", "safewalk/alice/Shared/bob",
            "safewalk/alice/shared/b ob", "safewalk/alice/shared/bob\u{0}", "safewalk/al\u{0}ice/shared/bob",
            "safewalk/_incidents/shared/bob", "safewalk/alice/shared/_service", "elsewhere/alice/shared/bob",
            "safewalk/alice/shared/\(String(repeating: "b", count: 65))", "safewalk/alice/shared/böb",
            "safewalk/alice/inbox", "owntracks/alice/shared", "", "/", "safewalk",
            "tenant-a/safewalk/alice/shared/bob",
        ] {
            #expect(SharedTopic.parse(topic, prefix: "safewalk") == nil, "\(topic)")
        }
        #expect(SharedTopic.parse("safewalk/alice/shared/bob", prefix: "tenant-a/safewalk") == nil)
    }

    func decode(_ topic: String, _ payload: Data) -> (walker: WalkerID?, event: WatchEvent)? {
        WatchEvent.decode(MQTTMessage(topic: topic, payload: payload), prefix: "safewalk")
    }

    @Test func sharedViewsAndTheirEndAreShownForTheViewer() throws {
        let view = SharedView(
            user: bob, incident: .init(id: "i-1", level: .red, reason: .panic, duress: false, openedAt: now),
            position: nil, updatedAt: now)
        let shown = try #require(decode("safewalk/alice/shared/bob", try SafeWalkJSON.encode(view)))
        #expect(shown.walker == alice)
        #expect(shown.event == .shared(of: bob, view))
        #expect(
            plain.line(shown.event, walker: alice, now: now)
                == "02:14:00 alice  SHARED     bob needs help (panic, red) since 02:14 — no position yet")
        let ended = try #require(decode("safewalk/alice/shared/bob", Data()))
        #expect(ended.event == .shared(of: bob, nil))
        #expect(
            plain.line(ended.event, walker: alice, now: now)?.hasSuffix("SHARED     bob is no longer shared with you")
                == true)
        let garbage = try #require(decode("safewalk/alice/shared/bob", Data("{".utf8)))
        guard case .unreadableShared(of: bob, _) = garbage.event else {
            Issue.record("garbage on shared/bob should be shown as unreadable, got \(garbage.event)")
            return
        }
    }

    @Test func circleResultsInboxAndCircleAreShownCommandsAndMembersAreNot() throws {
        let result = CircleResult(id: "c1", op: "follow", ok: true)
        let answer = try #require(decode("safewalk/alice/circle/result", try SafeWalkJSON.encode(result)))
        #expect(answer.event == .circleResult(result))
        #expect(plain.line(answer.event, walker: alice, now: now)?.hasSuffix("CIRCLE     follow ok id c1") == true)

        let checkedIn = InboxEvent(id: "e-1", type: .checkedIn, from: bob, at: now, text: "bob checked in.")
        let inbox = try #require(decode("safewalk/alice/inbox", try SafeWalkJSON.encode(checkedIn)))
        #expect(inbox.event == .inbox(checkedIn))
        #expect(
            plain.line(inbox.event, walker: alice, now: now)?.hasSuffix("INBOX      bob checked in safe at 02:14")
                == true)

        let view = CircleView(user: alice, following: [.init(user: bob, sos: true, since: now)])
        let circle = try #require(decode("safewalk/alice/circle", try SafeWalkJSON.encode(view)))
        #expect(circle.event == .circle(view))
        #expect(
            plain.line(circle.event, walker: alice, now: now)?.hasSuffix(
                "CIRCLE     following bob (SOS) · no followers")
                == true)
        #expect(decode("safewalk/alice/circle", Data())?.event == .circle(nil))
        guard case .unreadable(.inbox, _)? = decode("safewalk/alice/inbox", Data("[]".utf8))?.event else {
            Issue.record("garbage on the inbox should be shown as unreadable")
            return
        }

        let command = try SafeWalkJSON.encode(CircleCommand(id: "c1", op: .follow, user: "bob"))
        #expect(decode("safewalk/alice/circle/cmd", command) == nil)
        #expect(decode("safewalk/_members/alice", try SafeWalkJSON.encode(Member(user: alice, since: now))) == nil)
    }
}
