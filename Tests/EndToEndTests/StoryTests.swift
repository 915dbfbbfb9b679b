import Foundation
import SafeWalkCore
import SafeWalkMQTT
import TestSupport
import Testing

/// Every product feature as a short story, across all five real executables on the secured
/// broker, with a fake SMS gateway and a fake Gemini on loopback. Thresholds are shortened by
/// configuration (check-in 1 s, no reply 2 s, no movement 3 s, offline grace 1 s).
@Suite("End to end: the product as users know it", .serialized)
struct StoryTests {
    @Test func aWalkWithEveryCheckInAnsweredNeverEscalates() async throws {
        let world = try await StoryWorld.start()
        let alice = try await Walker("alice", on: world.stack)
        let statuses = try await world.watch("alice", .status)
        let escalations = try await world.watch("alice", .escalation)
        let chat = try await alice.phone.subscribe(alice.topic(.chat), qos: .atLeastOnce)
        try await alice.keepAnswering()
        alice.keepWalking()
        try await alice.send(.start)

        // Three check-ins answered: well past the 2 s no-reply window of the first one.
        let states = try await withTimeout(30, "three answered check-ins") {
            var states: [WatchState] = []
            for await message in statuses {
                guard let status = try? SafeWalkJSON.decode(WatchStatus.self, from: message.payload, maxBytes: 1 << 16),
                    status.watching, states.last != status.state
                else { continue }
                states.append(status.state)
                if states.filter({ $0 == .checking }).count == 3, status.state == .safe { break }
            }
            return states
        }
        #expect(states == [.safe, .checking, .safe, .checking, .safe, .checking, .safe])
        let checkIns = try await chat.decoded(ChatMessage.self, count: 1)
        #expect(checkIns.first?.isUser == false)
        #expect(await escalations.drained().isEmpty, "\(world.stack.logs)")
        await alice.leave(); await world.stop()
    }

    @Test func silenceEscalatesOnceAndEveryDialableContactIsTexted() async throws {
        let world = try await StoryWorld.start()
        let bob = try await Walker("bob", on: world.stack)
        let results = try await world.addContacts([("Mom", "512-555-0101"), ("Dad", "(737) 555-0102")], for: bob)
        #expect(results.allSatisfy { $0.isOK })
        let escalations = try await world.watch("bob", .escalation)
        let alerts = try await bob.phone.subscribe(bob.topic(.alert), qos: .atLeastOnce)
        let receipts = try await bob.phone.subscribe(bob.topic(.delivery), qos: .atLeastOnce)
        bob.keepWalking()  // moving, so silence is the only thing wrong
        try await bob.send(.start)

        let escalation = try #require(try await escalations.decoded(EscalationEvent.self).first)
        #expect(escalation.reason == .noReply)
        #expect(escalation.lastFix != nil)
        let alert = try #require(try await alerts.decoded(DeviceAlert.self).first)
        #expect(alert.actions.map(\.title) == ["Call UT Police", "Text 2 contacts"])
        #expect(alert.actions.first?.url == "tel:+15124714441")  // the configured 5124714441, in E.164
        let sms = try #require(alert.actions.last?.url)
        #expect(sms.hasPrefix("sms:+15125550101,+17375550102?&body="), "\(sms)")
        #expect(sms.removingPercentEncoding?.contains("maps.google.com/?q=") == true, "\(sms)")

        let texts = try await receipts.decoded(DeliveryReceipt.self, count: 2, where: { $0.channel == "sms-http" })
        #expect(texts.allSatisfy { $0.status == .sent && $0.escalationId == escalation.id })
        let stats = try await world.gateway.stats()
        #expect(stats.accepted == ["+15125550101": 1, "+17375550102": 1], "\(stats)")
        // One incident, one escalation: the walker stays in alert, nothing repeats.
        bob.stopWalking()
        #expect(await escalations.drained().isEmpty)
        await bob.leave(); await world.stop()
    }

    @Test func standingStillEscalatesAndMovingMoreThanFiveMetresResetsTheClock() async throws {
        let world = try await StoryWorld.start()
        let carol = try await Walker("carol", on: world.stack)
        let escalations = try await world.watch("carol", .escalation)
        try await carol.keepAnswering()
        try await carol.sendFix()
        try await carol.send(.start)
        // Stand still for 1.5 s of the 3 s allowed, then move 30 m once, then stand still again.
        for _ in 0..<5 { try await carol.sendFix(); try await Task.sleep(for: .milliseconds(300)) }
        carol.step(metres: 30)
        try await carol.sendFix()
        let movedAt = Walker.now
        let escalation = try #require(try await escalations.decoded(EscalationEvent.self).first)
        #expect(escalation.reason == .noMovement)
        #expect(escalation.at >= movedAt + 3 - 0.3, "the 30 m step must restart the 3 s clock")
        #expect(escalation.at < movedAt + 3 + 2)
        await carol.leave(); await world.stop()
    }

    @Test func aWalkNotEndedByItsETAIsOverdueEvenWhileMoving() async throws {
        let world = try await StoryWorld.start()
        let dave = try await Walker("dave", on: world.stack)
        let escalations = try await world.watch("dave", .escalation)
        try await dave.keepAnswering()
        dave.keepWalking()
        let started = Walker.now
        try await dave.send(.startWalk(destination: "Library", minutes: 0.05))  // a 3 s walk
        let escalation = try #require(try await escalations.decoded(EscalationEvent.self).first)
        #expect(escalation.reason == .walkOverdue)
        #expect(escalation.walk?.destination == "Library")
        #expect(escalation.at >= started + 3 - 0.3)
        await dave.leave(); await world.stop()
    }

    @Test func quickRepliesAnswerWithoutGeminiAndINeedHelpEscalatesAtOnce() async throws {
        let world = try await StoryWorld.start()
        let erin = try await Walker("erin", on: world.stack)
        let statuses = try await erin.phone.subscribe(erin.topic(.status), qos: .atLeastOnce)
        let chat = try await erin.phone.subscribe(erin.topic(.chat), qos: .atLeastOnce)
        let escalations = try await world.watch("erin", .escalation)
        erin.keepWalking()
        try await erin.send(.start)
        _ = try await statuses.decoded(WatchStatus.self, count: 1, where: { $0.state == .checking })
        _ = try await chat.decoded(ChatMessage.self)  // the check-in
        try await erin.reply("I'm okay 👍")
        let answer = try await chat.decoded(ChatMessage.self).first
        #expect(answer?.text == QuickReply.lookup("I'm okay 👍")?.answer)
        _ = try await statuses.decoded(WatchStatus.self, count: 1, where: { $0.state == .safe })
        #expect(world.gemini.requests.isEmpty, "a quick reply must not call Gemini")

        let sentAt = Walker.now
        try await erin.reply("I need help 🚨")
        let escalation = try #require(try await escalations.decoded(EscalationEvent.self).first)
        #expect(escalation.reason == .needHelp)
        #expect(escalation.at - sentAt < 1, "needHelp escalates at once")
        #expect(world.gemini.requests.isEmpty)
        await erin.leave(); await world.stop()
    }

    @Test func panicAmberThenRedEscalatesTwiceWithRisingLevel() async throws {
        let world = try await StoryWorld.start()
        let frank = try await Walker("frank", on: world.stack)
        _ = try await world.addContacts([("Sam", "512-555-0103")], for: frank)
        let escalations = try await world.watch("frank", .escalation)
        let receipts = try await frank.phone.subscribe(frank.topic(.delivery), qos: .atLeastOnce)
        try await frank.send(.panic(.amber))
        let amber = try #require(try await escalations.decoded(EscalationEvent.self).first)
        _ = try await receipts.decoded(DeliveryReceipt.self, count: 1, where: { $0.channel == "sms-http" })
        try await frank.send(.panic(.red))
        let red = try #require(try await escalations.decoded(EscalationEvent.self).first)
        _ = try await receipts.decoded(DeliveryReceipt.self, count: 1, where: { $0.channel == "sms-http" })
        #expect([amber.reason, red.reason] == [.panic, .panic])
        #expect([amber.level, red.level] == [.amber, .red])
        let bodies = try await world.gateway.stats().bodies["+15125550103"] ?? []
        #expect(bodies.count == 2)
        #expect(bodies.first?.contains("keep an eye") == true, "\(bodies)")
        #expect(bodies.last?.contains("needs help now") == true, "\(bodies)")
        await frank.leave(); await world.stop()
    }

    @Test func aTrackerWhoseLastWillFiresDuringAWatchEscalatesAfterTheGracePeriod() async throws {
        let world = try await StoryWorld.start()
        let grace = try await Walker("grace", on: world.stack)
        let escalations = try await world.watch("grace", .escalation)
        try await grace.keepAnswering()
        grace.keepWalking()
        try await grace.send(.start)
        // The tracker: its own connection as grace, OwnTracks fixes, and a Last Will on presence.
        let tracker = try ChildProcess(
            try Executables.find("mosquitto_sub").path,
            [
                "-h", "127.0.0.1", "-p", "\(world.stack.broker.port)", "-u", "grace", "-P",
                ServiceStack.password(for: "grace"),
                "-i", "grace-tracker", "-v", "-t", "safewalk/grace/status",
                "--will-topic", "safewalk/grace/presence", "--will-payload", "offline", "--will-retain", "--will-qos",
                "1",
            ],
            logFile: world.stack.broker.directory.appendingPathComponent("tracker.log"))
        try await eventually("tracker connected", within: 10) { tracker.output.contains("safewalk/grace/status") }
        let owntracks =
            #"{"_type":"location","lat":30.2849,"lon":-97.7341,"tst":\#(Int(Walker.now)),"acc":8,"tid":"gr"}"#
        try await grace.phone.publish("owntracks/grace/tracker", string: owntracks)
        tracker.signal(SIGKILL)
        let killedAt = Walker.now
        let escalation = try #require(try await escalations.decoded(EscalationEvent.self).first)
        #expect(escalation.reason == .trackerOffline)
        #expect(escalation.at >= killedAt + 1 - 0.3, "after the 1 s grace period")
        await grace.leave(); await world.stop()
    }

    /// OwnTracks cannot set `offline` on `{w}/presence`: its will is `{"_type":"lwt"}` on its own
    /// topic. location-ingest says `offline` for it (through the production ACL), and the
    /// watchdog escalates as for any vanished tracker.
    /// The OwnTracks app is olga's only tracker: a fix from anywhere would say she is back.
    @Test func anOwnTracksAppThatVanishesDuringAWatchEscalatesAfterTheGracePeriod() async throws {
        let world = try await StoryWorld.start(["SAFEWALK_NO_MOVEMENT_AFTER": "60"])
        let olga = try await Walker("olga", on: world.stack)
        let escalations = try await world.watch("olga", .escalation)
        let presence = try await world.watch("olga", .presence)
        try await olga.keepAnswering()
        try await olga.send(.start)
        let connectedAt = Int(Walker.now)
        let app = try ChildProcess(
            try Executables.find("mosquitto_sub").path,
            [
                "-h", "127.0.0.1", "-p", "\(world.stack.broker.port)", "-u", "olga", "-P",
                ServiceStack.password(for: "olga"), "-i", "olga-owntracks", "-v", "-t", "safewalk/olga/status",
                "--will-topic", "owntracks/olga/phone", "--will-payload", #"{"_type":"lwt","tst":\#(connectedAt)}"#,
                "--will-qos", "1",
            ],
            logFile: world.stack.broker.directory.appendingPathComponent("owntracks.log"))
        try await eventually("OwnTracks connected", within: 10) { app.output.contains("safewalk/olga/status") }
        app.signal(SIGKILL)
        let killedAt = Walker.now
        try await withTimeout(10, "location-ingest says offline") {
            for await message in presence where message.string == "offline" { return }
        }
        let escalation = try #require(try await escalations.decoded(EscalationEvent.self).first)
        #expect(escalation.reason == .trackerOffline)
        #expect(escalation.at >= killedAt + 1 - 0.3, "after the 1 s grace period")
        await olga.leave(); await world.stop()
    }

    @Test func contactsAddedOverMQTTWithOneBadNumberTextTheOthersAndReportTheBadOne() async throws {
        let world = try await StoryWorld.start()
        let heidi = try await Walker("heidi", on: world.stack)
        let results = try await world.addContacts(
            [("Ana", "512-555-0104"), ("Ben", "call me maybe"), ("Cal", "+1 737 555 0105")], for: heidi)
        #expect(results.count == 3)
        let receipts = try await heidi.phone.subscribe(heidi.topic(.delivery), qos: .atLeastOnce)
        try await heidi.send(.needHelp)
        let texts = try await receipts.decoded(DeliveryReceipt.self, count: 3, where: { $0.channel == "sms-http" })
        #expect(texts.filter { $0.status == .sent }.count == 2)
        let failed = texts.filter { $0.status == .failed }
        #expect(failed.count == 1)
        #expect(failed.first?.reason?.isEmpty == false)
        let stats = try await world.gateway.stats()
        #expect(stats.accepted == ["+15125550104": 1, "+17375550105": 1], "\(stats)")
        await heidi.leave(); await world.stop()
    }
}
