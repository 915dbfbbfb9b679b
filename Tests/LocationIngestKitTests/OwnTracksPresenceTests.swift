import LocationIngestKit
import SafeWalkCore
import Testing

@Suite struct OwnTracksPresenceTests {
    @Test func aFirstWillSaysOffline() {
        let (will, presence) = OwnTracksPresence.lastWill(connectedAt: 100, known: nil)
        #expect(will == OwnTracksWill(connectedAt: 100, offline: true))
        #expect(presence == .offline)
    }

    @Test func theSameWillAgainSaysNothingWhetherTheWalkerIsOnlineOrNot() {
        for offline in [true, false] {
            let known = OwnTracksWill(connectedAt: 100, offline: offline)
            let (will, presence) = OwnTracksPresence.lastWill(connectedAt: 100, known: known)
            #expect(will == known && presence == nil)
        }
    }

    @Test func aNewWillAfterTheWalkerCameBackSaysOfflineAgain() {
        let known = OwnTracksWill(connectedAt: 100, offline: false)
        let (will, presence) = OwnTracksPresence.lastWill(connectedAt: 200, known: known)
        #expect(will == OwnTracksWill(connectedAt: 200, offline: true) && presence == .offline)
    }

    @Test func aWillWithoutTimeAlwaysCountsButIsNotRepeatedWhileOffline() {
        #expect(
            OwnTracksPresence.lastWill(connectedAt: nil, known: OwnTracksWill(connectedAt: nil, offline: false)).1
                == .offline)
        let (will, presence) = OwnTracksPresence.lastWill(
            connectedAt: nil, known: OwnTracksWill(connectedAt: 100, offline: true))
        #expect(will == OwnTracksWill(connectedAt: nil, offline: true) && presence == nil)
    }

    @Test func aFixBringsAnOfflineWalkerBackAndKeepsTheWillsTime() {
        let back = OwnTracksPresence.fix(known: OwnTracksWill(connectedAt: 100, offline: true))
        #expect(back?.0 == OwnTracksWill(connectedAt: 100, offline: false) && back?.1 == .online)
        #expect(OwnTracksPresence.fix(known: OwnTracksWill(connectedAt: 100, offline: false)) == nil)
        #expect(OwnTracksPresence.fix(known: nil) == nil)
    }
}
