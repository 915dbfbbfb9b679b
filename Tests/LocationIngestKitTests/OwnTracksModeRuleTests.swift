import Foundation
import LocationIngestKit
import SafeWalkCore
import Testing

/// The pure rules for an OwnTracks app's mode during incidents.
@Suite struct OwnTracksModeRuleTests {
    static func incident(
        _ id: String = "e1", state: IncidentState.Phase = .open, duress: Bool = false
    ) -> IncidentState {
        IncidentState(
            incident: id, walker: Fixtures.alice, state: state, reason: .noReply, level: duress ? .red : .amber,
            duress: duress, openedAt: Fixtures.now)
    }

    func sighting(_ mode: Int?, _ device: OwnTracksDevice?) -> OwnTracksDevice {
        OwnTracksModeRule.sighting(mode: mode, known: device).0
    }

    @Test func aDevicesModeIsRememberedAndOnlyAChangeIsAChange() {
        let (first, new) = OwnTracksModeRule.sighting(mode: 0, known: nil)
        #expect(new && first.usualMode == 0)
        #expect(!OwnTracksModeRule.sighting(mode: 0, known: first).changed, "the same m again writes nothing")
        #expect(!OwnTracksModeRule.sighting(mode: nil, known: first).changed)
        #expect(OwnTracksModeRule.sighting(mode: -1, known: first).0.usualMode == -1)
        #expect(sighting(7, first).usualMode == 0, "not an OwnTracks mode")
    }

    @Test func anOpenIncidentAsksForMoveModeAndALocationOnce() {
        let device = sighting(0, nil)
        let (held, instructions) = OwnTracksModeRule.incident(Self.incident(), device: device)
        #expect(instructions == [.setMonitoring(2), .reportLocation])
        #expect(held.commanded == .move(incident: "e1"))
        #expect(OwnTracksModeRule.incident(Self.incident(), device: held).1.isEmpty, "said once per incident")
        // Raised amber → red: the same incident, nothing new to say.
        #expect(OwnTracksModeRule.incident(Self.incident(), device: held).1.isEmpty)
    }

    @Test func whileHeldInMoveModeTheDevicesReportsDoNotBecomeItsUsualMode() {
        let held = OwnTracksModeRule.incident(Self.incident(), device: sighting(0, nil)).0
        #expect(sighting(2, held).usualMode == 0)
    }

    @Test func aCloseGivesBackTheUsualModeOnce() {
        let held = OwnTracksModeRule.incident(Self.incident(), device: sighting(0, nil)).0
        let (back, instructions) = OwnTracksModeRule.incident(Self.incident(state: .closed), device: held)
        #expect(instructions == [.setMonitoring(0)])
        #expect(back.commanded == .restored(incident: "e1"))
        #expect(OwnTracksModeRule.incident(Self.incident(state: .closed), device: back).1.isEmpty)
        #expect(OwnTracksModeRule.incident(nil, device: back).1.isEmpty)
    }

    @Test func aDeviceWhoseModeWasNeverSeenGetsSignificantChangesBack() {
        let held = OwnTracksModeRule.incident(Self.incident(), device: OwnTracksDevice()).0
        #expect(OwnTracksModeRule.incident(nil, device: held).1 == [.setMonitoring(1)])
    }

    @Test func aDuressIsGivenBackExactlyAsACancel() {
        let held = OwnTracksModeRule.incident(Self.incident(), device: sighting(0, nil)).0
        let afterCancel = OwnTracksModeRule.incident(Self.incident(state: .closed), device: held)
        let afterDuress = OwnTracksModeRule.incident(Self.incident(duress: true), device: held)
        #expect(afterDuress.1 == afterCancel.1)
        #expect(afterDuress.0 == afterCancel.0)
        // The duress incident is closed later with the cancel PIN: nothing more is said.
        #expect(OwnTracksModeRule.incident(Self.incident(state: .closed), device: afterDuress.0).1.isEmpty)
    }

    @Test func aDuressFromTheStartNeverTouchesTheDevice() {
        let device = sighting(1, nil)
        #expect(OwnTracksModeRule.incident(Self.incident(duress: true), device: device) == (device, []))
    }

    @Test func aLateCopyOfAnIncidentsOpenStateDoesNotHoldTheDeviceAgain() {
        let held = OwnTracksModeRule.incident(Self.incident(), device: sighting(0, nil)).0
        let back = OwnTracksModeRule.incident(Self.incident(state: .closed), device: held).0
        #expect(OwnTracksModeRule.incident(Self.incident(), device: back).1.isEmpty)
        #expect(
            OwnTracksModeRule.incident(Self.incident("e2"), device: back).1 == [.setMonitoring(2), .reportLocation])
    }

    @Test func afterARestoreMoveReportsWaitForTheRestoreToArrive() {
        let held = OwnTracksModeRule.incident(Self.incident(), device: sighting(0, nil)).0
        let back = OwnTracksModeRule.incident(nil, device: held).0
        // A location sent before the app applied the restore still says move.
        let stillMoving = sighting(2, back)
        #expect(stillMoving.usualMode == 0 && stillMoving.restorePending)
        let arrived = sighting(0, stillMoving)
        #expect(!arrived.restorePending)
        // From then on, a move the walker picks is theirs.
        #expect(sighting(2, arrived).usualMode == 2)
    }
}

/// `m` read straight from the bytes.
@Suite struct MonitoringModeScannerTests {
    func mode(_ json: String) -> Int? { OwnTracksCommander.monitoringMode(in: Data(json.utf8)) }

    @Test func readsTheModeWhereverItIs() {
        #expect(mode(#"{"_type":"location","lat":1,"lon":2,"m":2,"tst":3}"#) == 2)
        #expect(mode(#"{"m" : -1 , "_type":"location"}"#) == -1)
        #expect(mode("{\n  \"m\"\t:\n 0\n}") == 0)
    }

    @Test func anythingElseIsNoMode() {
        #expect(mode(#"{"_type":"location","lat":1}"#) == nil)
        #expect(mode(#"{"m":"2"}"#) == nil)
        #expect(mode(#"{"m":2.5}"#) == nil)
        #expect(mode(#"{"desc":"\"m\":1","mode":3}"#) == nil)
        #expect(mode(#"{"inregions":["m"],"tst":1}"#) == nil)
        #expect(mode(#"{"m":12345}"#) == nil)
        #expect(mode(#"{"m":"#) == nil)
    }
}
