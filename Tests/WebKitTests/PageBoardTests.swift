import SafeWalkCore
import SafeWalkService
import SafeWalkWebKit
import Testing

/// The live pages' rules as a value: which pages exist, when they close, when they die, and what
/// each one shows.
@Suite struct PageBoardTests {
    static let alice = WalkerID(validating: "alice")!
    static let mum = PageToken.digest("mum-token-0123456789ab")
    static let sam = PageToken.digest("sam-token-0123456789ab")

    static func ladder(
        _ incident: String = "i-1", openedAt: Double = 1_000, pages: [(String, String)] = [("Mum", mum), ("Sam", sam)],
        state: IncidentState.Phase = .open, acknowledgedBy: String? = nil
    ) -> LadderState {
        LadderState(
            incident: incident, walker: alice, state: state, level: .amber, reason: .noReply, openedAt: openedAt,
            closedAt: state == .closed ? openedAt + 300 : nil, tier: 1,
            acknowledgement: acknowledgedBy.map { LadderAcknowledgement(by: $0, via: .page, at: openedAt + 60) },
            recipients: pages.map {
                LadderRecipient(
                    name: $0.0, tier: 1, channel: "sms-http", display: "+***1", page: $0.1, toldAt: openedAt)
            },
            timeline: [LadderEntry(at: openedAt, kind: .opened, text: "alice did not answer a check-in")])
    }

    static func incident(_ id: String = "i-1", openedAt: Double = 1_000, closedAt: Double? = nil, duress: Bool = false)
        -> IncidentState
    {
        IncidentState(
            incident: id, walker: alice, state: closedAt == nil ? .open : .closed, reason: .noReply,
            level: duress ? .red : .amber, duress: duress, openedAt: openedAt, closedAt: closedAt,
            closedBy: closedAt == nil ? nil : .imSafe)
    }

    static let position = PositionUpdate(
        fix: LocationFix(lat: 30.2849, lon: -97.7341, tst: 1_010, acc: 8, batt: 80), moved: true, lastMovedAt: 1_010)

    func snapshot(_ board: PageBoard, _ digest: String, now: Double = 1_020) throws -> PageSnapshot {
        let view = try #require(board.view(digest))
        return PageSnapshot.make(page: view.page, walk: view.walk, answeredBy: view.answeredBy, now: now)
    }

    @Test func aLadderMakesOnePagePerRecipientWithAPage() throws {
        var board = PageBoard()
        let changed = board.apply(.ladder(Self.alice, Self.ladder()), now: 1_001)
        #expect(Set(changed.map(\.digest)) == [Self.mum, Self.sam])
        _ = board.apply(.position(Self.alice, Self.position), now: 1_010)
        let shown = try snapshot(board, Self.mum)
        #expect(shown.state == "open" && shown.position?.lat == 30.2849)
        #expect(shown.headline == "alice may need help: they did not answer a check-in")
        #expect(shown.position?.maps == "https://maps.google.com/?q=30.2849,-97.7341")
    }

    @Test func theWalkShowsWhileTheIncidentIsOpenAndNeverOnceItClosed() throws {
        var board = PageBoard()
        _ = board.apply(.ladder(Self.alice, Self.ladder()), now: 1_001)
        _ = board.apply(.plan(Self.alice, WalkPlan(destination: "Library", eta: 1_600)), now: 1_002)
        let open = try snapshot(board, Self.mum)
        #expect(open.walk?.destination == "Library" && open.walk?.eta == 1_600)
        #expect(PageHTML.page(open, token: "t", buttonKey: "k", tiles: nil).contains("Walking to Library, expected by"))
        _ = board.apply(.plan(Self.alice, nil), now: 1_003)
        #expect(try snapshot(board, Self.mum).walk == nil)
        #expect(board.view(Self.mum)?.page.revoked == false)
        _ = board.apply(.plan(Self.alice, WalkPlan(destination: "Library", eta: 1_600)), now: 1_004)
        _ = board.apply(.incident(Self.alice, Self.incident(closedAt: 1_005)), now: 1_005)
        let closed = try snapshot(board, Self.mum)
        #expect(closed.state == "closed" && closed.walk == nil)
        #expect(!PageHTML.page(closed, token: "t", buttonKey: "k", tiles: nil).contains("Library"))
    }

    @Test func underDuressTheContactSeesRedNeverACancel() throws {
        var board = PageBoard()
        _ = board.apply(.ladder(Self.alice, Self.ladder()), now: 1_001)
        _ = board.apply(.incident(Self.alice, Self.incident(duress: true)), now: 1_002)
        let shown = try snapshot(board, Self.mum)
        #expect(shown.state == "open" && shown.level == "red" && shown.headline.contains("needs help now"))
        #expect(!shown.headline.contains("duress"))
    }

    @Test func aClosedIncidentShowsNoPositionAndDiesAfterTheGrace() throws {
        var board = PageBoard()
        _ = board.apply(.ladder(Self.alice, Self.ladder()), now: 1_001)
        _ = board.apply(.position(Self.alice, Self.position), now: 1_010)
        let closed = board.apply(.incident(Self.alice, Self.incident(closedAt: 1_300)), now: 1_301)
        #expect(closed.count == 2 && closed.allSatisfy { $0.closedAt == 1_300 })
        let shown = try snapshot(board, Self.mum, now: 1_302)
        #expect(shown.state == "closed" && shown.position == nil && shown.headline.hasPrefix("alice is safe (at "))
        let page = try #require(board.view(Self.mum)?.page)
        #expect(!page.isDead(at: 1_300 + 1_800, grace: 1_800) && page.isDead(at: 1_301 + 1_800, grace: 1_800))
    }

    @Test func aRecipientLeavingTheLadderRevokesTheirPage() {
        var board = PageBoard()
        _ = board.apply(.ladder(Self.alice, Self.ladder()), now: 1_001)
        let changed = board.apply(.ladder(Self.alice, Self.ladder(pages: [("Mum", Self.mum)])), now: 1_050)
        #expect(changed.map(\.digest) == [Self.sam] && changed.first?.revoked == true)
    }

    @Test func anErasureRevokesEveryPageAndForgetsTheNames() {
        var board = PageBoard()
        _ = board.apply(.ladder(Self.alice, Self.ladder()), now: 1_001)
        let changed = board.apply(.ladder(Self.alice, nil), now: 1_050)
        #expect(changed.count == 2 && changed.allSatisfy { $0.revoked && $0.name.isEmpty })
    }

    @Test func aLaterIncidentClosesTheEarlierPagesButAStaleOneClosesNothing() {
        var board = PageBoard()
        _ = board.apply(.ladder(Self.alice, Self.ladder("i-2", openedAt: 2_000)), now: 2_001)
        // The previous incident's last state, read after the newer ladder: no effect.
        #expect(board.apply(.incident(Self.alice, Self.incident("i-1", closedAt: 1_500)), now: 2_002).isEmpty)
        let later = board.apply(.incident(Self.alice, Self.incident("i-3", openedAt: 3_000)), now: 3_001)
        #expect(later.count == 2 && later.allSatisfy { $0.closedAt == 3_000 })
    }

    @Test func onItNamesTheReaderOrWhoeverStands() throws {
        var board = PageBoard()
        _ = board.apply(.ladder(Self.alice, Self.ladder()), now: 1_001)
        board.noteAcknowledged(Self.mum, by: "Mum")
        #expect(try snapshot(board, Self.mum).onIt == "You are on it")
        _ = board.apply(.ladder(Self.alice, Self.ladder(acknowledgedBy: "Sam")), now: 1_070)
        #expect(try snapshot(board, Self.mum).onIt == "Sam is on it")
        #expect(try snapshot(board, Self.sam).onIt == "You are on it")
    }
}
