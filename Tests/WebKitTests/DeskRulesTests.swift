import SafeWalkCore
import SafeWalkWebKit
import Testing

/// The desk's pure rules: which positions may be served, how walkers are counted, the figures and
/// the timeline's order, and when the desk may tell the walker's device anything.
@Suite struct DeskRulesTests {
    static let alice = WalkerID(validating: "alice")!
    static let bob = WalkerID(validating: "bob")!

    static func incident(
        _ state: IncidentState.Phase, walker: WalkerID = alice, duress: Bool = false, id: String = "i-1"
    )
        -> IncidentState
    {
        IncidentState(
            incident: id, walker: walker, state: state, reason: .noReply, level: .amber, duress: duress, openedAt: 100,
            closedAt: state == .closed ? 200 : nil)
    }

    static let fix = PositionUpdate(fix: LocationFix(lat: 1, lon: 2, tst: 90, acc: 5), moved: true, lastMovedAt: 90)

    @Test func aPositionIsServableOnlyWhileAnIncidentIsOpen() {
        #expect(!DeskPositionRule.mayServe(nil))
        #expect(!DeskPositionRule.mayServe(Self.incident(.closed)))
        #expect(DeskPositionRule.mayServe(Self.incident(.open)))
        #expect(DeskPositionRule.mayServe(Self.incident(.open, duress: true)))
        var board = DeskBoard()
        let unseen = board.apply(.position(Self.alice, Self.fix))
        #expect(!unseen)  // nobody may see it: nothing the board shows changed
        #expect(board.servablePosition(of: Self.alice) == nil)
        let opened = board.apply(.incident(Self.alice, Self.incident(.open)))
        #expect(opened)
        #expect(board.servablePosition(of: Self.alice) == Self.fix)
        _ = board.apply(.incident(Self.alice, Self.incident(.closed)))
        #expect(board.servablePosition(of: Self.alice) == nil)
    }

    @Test func walkersAreCountedByWhatTheServicesKnowNotWhatTheDeviceShows() {
        var board = DeskBoard()
        _ = board.apply(.status(Self.alice, WatchStatus(state: .safe, watching: true, since: 1)))
        _ = board.apply(.status(Self.bob, WatchStatus(state: .checking, watching: true, since: 1)))
        _ = board.apply(.status(WalkerID(validating: "carl")!, WatchStatus(state: .safe, watching: false, since: 1)))
        #expect(board.counts == DeskBoard.Counts(safe: 1, checking: 1, alert: 0))
        // After a duress PIN the device shows a cancel; the desk counts an alert.
        _ = board.apply(.incident(Self.alice, Self.incident(.open, duress: true)))
        #expect(board.counts == DeskBoard.Counts(safe: 0, checking: 1, alert: 1))
        #expect(board.openIncidents.map(\.walker) == [Self.alice])
        _ = board.apply(.incident(Self.alice, nil))
        #expect(board.openIncidents.isEmpty)
    }

    @Test func figuresAreNearestRankPercentiles() {
        let figures = DeskFigures(ack: [30, 10, 20, 40], close: [])
        #expect(figures.ack.p50 == 20)
        #expect(figures.ack.p95 == 40)
        #expect(figures.ack.count == 4)
        #expect(figures.close.p50 == nil)
        let many = DeskFigures(ack: (1...100).map(Double.init), close: [5])
        #expect(many.ack.p50 == 50)
        #expect(many.ack.p95 == 95)
        #expect(many.close.p95 == 5)
    }

    @Test func theTimelineMergesTheLadderTheIncidentAndTheDeskInTimeOrder() {
        let ladder = LadderState(
            incident: "i-1", walker: Self.alice, state: .open, level: .amber, reason: .noReply, openedAt: 100,
            closedAt: nil, tier: 1, acknowledgement: nil, recipients: [],
            timeline: [
                LadderEntry(at: 100, kind: .opened, text: "alice did not answer"),
                LadderEntry(at: 101, kind: .told, text: "Mum was told by text"),
            ])
        let log = [
            DeskLogEntry(incident: "i-1", at: 150, kind: .note, operator: "olga", text: "Called her."),
            DeskLogEntry(incident: "i-1", at: 101, kind: .acknowledged, operator: "olga", text: "olga acknowledged"),
        ]
        let timeline = DeskSnapshot.timeline(Self.incident(.closed), ladder: ladder, log: log)
        #expect(timeline.map(\.at) == [100, 100, 101, 101, 150, 200])
        #expect(
            timeline.map(\.kind) == ["incident", "opened", "told", "desk.acknowledged", "desk.note", "incidentClosed"])
        #expect(timeline[4].by == "olga")
    }

    @Test func theDeskMayTellTheDeviceNothingWhileADuressIncidentIsOpen() {
        #expect(DeviceDisclosure.deskMayTell(about: "i-1", current: nil))
        #expect(DeviceDisclosure.deskMayTell(about: "i-1", current: Self.incident(.open)))
        #expect(!DeviceDisclosure.deskMayTell(about: "i-1", current: Self.incident(.open, duress: true)))
        #expect(DeviceDisclosure.deskMayTell(about: "i-1", current: Self.incident(.closed, duress: true)))
        // A later incident replaced it: the old one is over.
        #expect(DeviceDisclosure.deskMayTell(about: "i-0", current: Self.incident(.open, duress: true)))
    }

    @Test func aDuressFalseAlarmNeedsANote() {
        #expect(DeskCloseRule.refusal(reason: .falseAlarm, note: nil, duress: true) == .noteRequired)
        #expect(DeskCloseRule.refusal(reason: .falseAlarm, note: "  \n", duress: true) == .noteRequired)
        #expect(DeskCloseRule.refusal(reason: .falseAlarm, note: "Spoke to her.", duress: true) == nil)
        #expect(DeskCloseRule.refusal(reason: .falseAlarm, note: nil, duress: false) == nil)
        #expect(DeskCloseRule.refusal(reason: .handedToPolice, note: nil, duress: true) == nil)
        #expect(!DeskCloseRule.isUsableNote(String(repeating: "x", count: 1_001)))
        #expect(!DeskCloseRule.isUsableNote("bell\u{7}"))
        #expect(DeskCloseRule.isUsableNote("two\nlines"))
    }
}
