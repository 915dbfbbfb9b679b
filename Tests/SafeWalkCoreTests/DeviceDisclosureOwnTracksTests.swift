import SafeWalkCore
import Testing

/// The one duress-aware rule for an OwnTracks app's move mode: on while an incident the device may
/// know of is open, off otherwise, so after a duress PIN the app behaves exactly as after a cancel.
@Suite struct DeviceDisclosureOwnTracksTests {
    func incident(_ state: IncidentState.Phase, duress: Bool = false, level: EscalationLevel = .amber)
        -> IncidentState
    {
        IncidentState(
            incident: "e1", walker: walker(), state: state, reason: .noReply, level: level, duress: duress,
            openedAt: t0, closedAt: state == .closed ? t0 + 60 : nil, closedBy: state == .closed ? .imSafe : nil)
    }

    @Test func anOpenIncidentPutsTheAppInMoveMode() {
        #expect(DeviceDisclosure.owntracksMoveMode(for: incident(.open)))
        #expect(DeviceDisclosure.owntracksMoveMode(for: incident(.open, level: .red)))
    }

    @Test func noIncidentOrAClosedOneDoesNot() {
        #expect(!DeviceDisclosure.owntracksMoveMode(for: nil))
        #expect(!DeviceDisclosure.owntracksMoveMode(for: incident(.closed)))
    }

    @Test func aDuressIncidentIsForTheDeviceNoIncidentAtAll() {
        // Open and red for contacts, but the device was shown a cancel: same answer as a close.
        #expect(!DeviceDisclosure.owntracksMoveMode(for: incident(.open, duress: true, level: .red)))
        #expect(
            DeviceDisclosure.owntracksMoveMode(for: incident(.open, duress: true))
                == DeviceDisclosure.owntracksMoveMode(for: incident(.closed)))
    }
}
