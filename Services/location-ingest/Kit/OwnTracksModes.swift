import SafeWalkCore

/// What location-ingest remembers of one OwnTracks device (`owntracks/{user}/{device}`), persisted
/// so that a restart still knows the device, the mode to give back, and what it already said.
public struct OwnTracksDevice: Hashable, Sendable {
    /// What location-ingest last told the device about an incident.
    public enum Commanded: Hashable, Sendable {
        /// Move mode and a location request, for this incident.
        case move(incident: String)
        /// The usual mode given back after this incident (closed, or a duress the device saw cancelled).
        case restored(incident: String)
    }

    /// The last monitoring mode (`m`) the device reported while not held in move mode by an
    /// incident: what an incident's end gives back. Nil until one is seen.
    public var usualMode: Int?
    /// Nil until the first incident that concerned the device.
    public var commanded: Commanded?
    /// Set by a restore, cleared by the device's next report of a mode other than move: until then
    /// its reports of move are the incident's doing (the restore is still on its way), not the
    /// walker's choice, and must not become its usual mode.
    public var restorePending: Bool

    public init(usualMode: Int? = nil, commanded: Commanded? = nil, restorePending: Bool = false) {
        self.usualMode = usualMode
        self.commanded = commanded
        self.restorePending = restorePending
    }
}

/// One command for the OwnTracks app (`owntracks/{user}/{device}/cmd`): only what it changes.
public enum OwnTracksInstruction: Hashable, Sendable {
    /// `setConfiguration` with just `monitoring`.
    case setMonitoring(Int)
    /// `reportLocation`: send a fix now.
    case reportLocation
}

/// The rules for an OwnTracks device's monitoring mode during incidents. Pure: no IO, no clock.
/// Whether a device should be in move mode is never decided here but by
/// ``DeviceDisclosure/owntracksMoveMode(for:)``, so a duress is treated exactly as a cancel.
public enum OwnTracksModeRule {
    /// OwnTracks' `m`: -1 quiet, 0 manual, 1 significant changes, 2 move.
    public static let move = 2
    /// What an incident's end gives back to a device whose usual mode was never seen: the app's
    /// own default.
    public static let defaultMode = 1
    /// The modes OwnTracks defines; anything else in `m` is not remembered.
    public static let modes = -1...2

    /// A message from the device, with the `m` it carried if any. Returns the device as it is now
    /// and whether that changed (only then is it written: not once per fix).
    public static func sighting(mode: Int?, known: OwnTracksDevice?) -> (OwnTracksDevice, changed: Bool) {
        var device = known ?? OwnTracksDevice()
        if let mode, modes.contains(mode) {
            let held: Bool
            if case .move = device.commanded { held = true } else { held = false }
            if device.restorePending, mode != move { device.restorePending = false }
            // While held in move mode (or until the restore arrives) `m` says what we set, not what
            // the walker chose.
            if !held, !device.restorePending { device.usualMode = mode }
        }
        return (device, device != known)
    }

    /// The walker's incident state (nil: none, or cleared by an erasure). Returns the device as it
    /// is after the instructions, and the instructions to send (none when it was told already:
    /// a retained state handed over again after a restart repeats nothing).
    public static func incident(_ incident: IncidentState?, device: OwnTracksDevice)
        -> (OwnTracksDevice, [OwnTracksInstruction])
    {
        var device = device
        if DeviceDisclosure.owntracksMoveMode(for: incident), let id = incident?.incident {
            // Never held again for an incident it was already given back from (a late, reordered
            // copy of its open state).
            guard device.commanded != .move(incident: id), device.commanded != .restored(incident: id) else {
                return (device, [])
            }
            device.commanded = .move(incident: id)
            device.restorePending = false
            return (device, [.setMonitoring(move), .reportLocation])
        }
        guard case .move(let id) = device.commanded else { return (device, []) }
        device.commanded = .restored(incident: id)
        device.restorePending = true
        return (device, [.setMonitoring(device.usualMode ?? defaultMode)])
    }
}
