import NotifierKit
import SafeWalkCore
import Testing

/// The escalation ladder as a pure value on a virtual clock: times are plain seconds, so every
/// edge is reached by arithmetic, never by waiting.
@Suite struct LadderTests {
    let settings = LadderSettings()

    @Test func tierOneIsToldAtOnceAndRedClimbsAfterTwoMinutesThenToDispatch() {
        var (ladder, steps) = Ladder.open(incident: "e-1", level: .red, at: 0)
        #expect(steps == [.notify(.first)])
        #expect(ladder.nextDeadline(settings) == 120)
        #expect(ladder.advance(to: 119, settings: settings) == [])
        #expect(ladder.advance(to: 120, settings: settings) == [.notify(.backups)])
        #expect(ladder.advance(to: 240, settings: settings) == [.notify(.dispatch)])
        // At the top, everyone reached is reminded every five minutes.
        #expect(ladder.advance(to: 539, settings: settings) == [])
        #expect(ladder.advance(to: 540, settings: settings) == [.remind([.first, .backups, .dispatch])])
        #expect(ladder.nextDeadline(settings) == 840)
    }

    @Test func amberWaitsTenMinutesAndRemindsTierOneMeanwhile() {
        var (ladder, _) = Ladder.open(incident: "e-1", level: .amber, at: 1_000)
        #expect(ladder.advance(to: 1_300, settings: settings) == [.remind([.first])])
        #expect(ladder.advance(to: 1_600, settings: settings) == [.notify(.backups)])
        #expect(ladder.reached == .backups && ladder.reachedAt == 1_600)
    }

    /// A notifier that was down for a while does everything that fell due, once, in order.
    @Test func aLateAdvanceCatchesUpInOrderAndAgainDoesNothing() {
        var (ladder, _) = Ladder.open(incident: "e-1", level: .red, at: 0)
        let steps = ladder.advance(to: 900, settings: settings)
        #expect(
            steps == [
                .notify(.backups), .notify(.dispatch), .remind([.first, .backups, .dispatch]),
                .remind([.first, .backups, .dispatch]),
            ])
        #expect(ladder.advance(to: 900, settings: settings) == [])
    }

    @Test func anAcknowledgementStopsTheClimbUntilItIsOldThenTheLadderResumes() {
        var (ladder, _) = Ladder.open(incident: "e-1", level: .red, at: 0)
        #expect(ladder.acknowledge(by: "Mom", at: 60) == [.acknowledged(by: "Mom")])
        #expect(ladder.acknowledge(by: "Dad", at: 61) == [], "the first acknowledgement stands")
        #expect(ladder.advance(to: 659, settings: settings) == [], "no climb, no reminder while acknowledged")
        #expect(ladder.advance(to: 660, settings: settings) == [.resumed([.first])])
        #expect(ladder.acknowledgement == nil)
        // The next tier's wait counts from the resumption.
        #expect(ladder.advance(to: 779, settings: settings) == [])
        #expect(ladder.advance(to: 780, settings: settings) == [.notify(.backups)])
        #expect(ladder.acknowledge(by: "Dad", at: 800) == [.acknowledged(by: "Dad")])
    }

    @Test func closingSendsOneAllClearToEveryoneReachedAndEndsEverything() {
        var (ladder, _) = Ladder.open(incident: "e-1", level: .red, at: 0)
        _ = ladder.advance(to: 130, settings: settings)
        #expect(ladder.close(at: 140) == [.allClear([.first, .backups])])
        #expect(ladder.close(at: 141) == [])
        #expect(ladder.nextDeadline(settings) == nil)
        #expect(ladder.advance(to: 10_000, settings: settings) == [])
        #expect(ladder.acknowledge(by: "Mom", at: 150) == [])
    }

    @Test func anAcknowledgedIncidentThatEndsStillGetsItsAllClear() {
        var (ladder, _) = Ladder.open(incident: "e-1", level: .amber, at: 0)
        _ = ladder.acknowledge(by: "Mom", at: 10)
        #expect(ladder.close(at: 20) == [.allClear([.first])])
    }

    /// amber → red: red's waits apply, counted from when the current tier was reached.
    @Test func raisingToRedShortensTheWaitAndALateRaiseClimbsAtOnce() {
        var (ladder, _) = Ladder.open(incident: "e-1", level: .amber, at: 0)
        ladder.raise(to: .red)
        #expect(ladder.level == .red && ladder.nextDeadline(settings) == 120)
        var late = Ladder.open(incident: "e-2", level: .amber, at: 0).0
        #expect(late.advance(to: 200, settings: settings) == [])
        late.raise(to: .red)
        #expect(late.advance(to: 200, settings: settings) == [.notify(.backups)])
        late.raise(to: .amber)
        #expect(late.level == .red, "a level never goes down")
    }

    @Test func whenAClimbAndAReminderFallDueTogetherTheClimbGoesFirstAndRemindsNoOne() {
        let even = LadderSettings(
            tierTwoWait: [.red: .seconds(300)], tierThreeWait: [.red: .seconds(300)], reminderInterval: .seconds(300))
        var (ladder, _) = Ladder.open(incident: "e-1", level: .red, at: 0)
        #expect(ladder.advance(to: 300, settings: even) == [.notify(.backups)])
        #expect(ladder.advance(to: 600, settings: even) == [.notify(.dispatch)])
        #expect(ladder.advance(to: 900, settings: even) == [.remind([.first, .backups, .dispatch])])
    }
}
